import {
  cloneElement,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import type * as ActionDialogModule from './action-dialog.tsx';
import type { ButtonProps } from './ui/button.tsx';

/**
 * Code a page shows only when asked (a dialog, an editor), fetched by
 * `import()` the first time it is wanted rather than with the page: a member
 * who never opens it never downloads it, and the page's first load names
 * fewer modules. The route preloads (server's http/route-preload.ts) name
 * only what a page imports statically, so a module reached only through
 * here is never in a page's first HTML.
 */
export interface OnDemand<T> {
  /** Starts the fetch (once; again after a failure) and answers the module. */
  load(): Promise<T>;
  /** The module, once fetched. */
  loaded(): T | undefined;
}

export function onDemand<T>(fetch: () => Promise<T>): OnDemand<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      loading ??= fetch().then(
        (m) => (module = m),
        (error: unknown) => {
          // Not kept: the next attempt (a click, a hover) fetches again.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    loaded: () => module,
  };
}

/**
 * A module fetched on demand, for a component: `module` once fetched (at
 * once when it already is), fetched while `open`, or on `preload` (hover,
 * focus); `onFailed` when a fetch asked for by `open` fails.
 */
export function useOnDemand<T>(part: OnDemand<T>, open: boolean, onFailed: () => void) {
  const [module, setModule] = useState<T | undefined>(() => part.loaded());
  const [failed, setFailed] = useState(false);
  const failedRef = useRef(onFailed);
  useEffect(() => {
    failedRef.current = onFailed;
  });
  useEffect(() => {
    if (!open || module) return;
    let current = true;
    part.load().then(
      (m) => {
        if (!current) return;
        setFailed(false);
        setModule(() => m);
      },
      () => {
        if (!current) return;
        setFailed(true);
        failedRef.current();
      },
    );
    return () => {
      current = false;
    };
  }, [open, module, part]);
  const preload = () => {
    part.load().then(
      (m) => setModule(() => m),
      () => undefined,
    );
  };
  return { module, loading: open && !module, failed, preload };
}

/**
 * What a button whose dialog loads on demand says meanwhile: "Opening…",
 * announced (a live region present from the first render, so what is put in
 * it is read), and why it did not open when its code failed to load.
 */
export function OnDemandState({
  what,
  loading,
  failed,
}: {
  what: string;
  loading: boolean;
  failed: boolean;
}) {
  return (
    <>
      <span aria-live="polite" className="sr-only">
        {loading ? `Opening ${what}…` : ''}
      </span>
      {loading ? (
        <span aria-hidden="true" className="self-center text-sm text-slate-700">
          Opening…
        </span>
      ) : null}
      {failed ? (
        <p role="alert" className="basis-full text-sm text-red-800">
          {`Could not open ${what}: its code did not load. Check the connection and try again.`}
        </p>
      ) : null}
    </>
  );
}

/**
 * The button that opens a dialog whose code loads on demand, and the dialog
 * once loaded. Hovering or focusing the button starts the fetch, so a click
 * usually finds it there; a click before it arrives says "Opening…" (announced)
 * and opens it when it comes, focus staying on the button meanwhile. A fetch
 * that fails says so and leaves the button to try again. `children` renders
 * the opened dialog from the loaded module; `returnFocus` is its
 * `onCloseAutoFocus`, putting focus back on the button as a Radix trigger
 * would (the button is not one: Radix loads with the dialog).
 */
export function OnDemandDialog<T>({
  part,
  open,
  onOpenChange,
  trigger,
  what,
  children,
}: {
  part: OnDemand<T>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button, as it reads: `<Button variant="primary">Approve…</Button>`. */
  trigger: ReactElement<ButtonProps>;
  /** What opens, in the loading and failure notes: "the approval". */
  what: string;
  children: (module: T, returnFocus: (event: Event) => void) => ReactNode;
}) {
  const generatedId = useId();
  const buttonId = trigger.props.id ?? generatedId;
  const { module, loading, failed, preload } = useOnDemand(part, open, () => onOpenChange(false));

  const returnFocus = (event: Event) => {
    event.preventDefault();
    document.getElementById(buttonId)?.focus();
  };

  return (
    <>
      {cloneElement(trigger, {
        id: buttonId,
        'aria-haspopup': 'dialog',
        'aria-expanded': open,
        onClick: () => onOpenChange(true),
        onPointerEnter: preload,
        onFocus: preload,
      })}
      <OnDemandState what={what} loading={loading} failed={failed} />
      {open && module ? children(module, returnFocus) : null}
    </>
  );
}

const actionDialog = onDemand(() => import('./action-dialog.tsx'));

/**
 * `ActionDialog` (action-dialog.tsx) with its code, and the dialog library's,
 * loaded when its button is first hovered, focused or pressed. Its body is
 * given the loaded module, for the parts that need the dialog library
 * (`ConfirmActions`, `DialogActions`, `DialogClose`).
 */
export function OnDemandActionDialog({
  open,
  onOpenChange,
  onClosed,
  trigger,
  what,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onClosed: () => void;
  trigger: ReactElement<ButtonProps>;
  /** What opens, in the loading and failure notes: "the cancellation". */
  what: string;
  title: string;
  description: ReactNode;
  children: (dialog: typeof ActionDialogModule) => ReactNode;
}) {
  return (
    <OnDemandDialog
      part={actionDialog}
      open={open}
      onOpenChange={onOpenChange}
      trigger={trigger}
      what={what}
    >
      {(m, returnFocus) => (
        <m.ActionDialog
          open={open}
          onOpenChange={onOpenChange}
          onClosed={onClosed}
          title={title}
          description={description}
          onCloseAutoFocus={returnFocus}
        >
          {children(m)}
        </m.ActionDialog>
      )}
    </OnDemandDialog>
  );
}
