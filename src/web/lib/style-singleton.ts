/**
 * Stands in for the `react-style-singleton` package (vite.config.ts aliases
 * it here). The dialog library's scroll lock (react-remove-scroll, under
 * Radix Dialog) writes its CSS into a `<style>` element it creates at run
 * time; the console's Content-Security-Policy (`style-src 'self'`) refuses
 * such an element, so every dialog logged a violation and the page behind
 * it kept scrolling. The same rules live in `styles.css` instead, keyed on
 * the `data-scroll-locked` attribute the library still sets on `<body>`;
 * here nothing is injected. Same exports, same signatures.
 */

type Sheet = (props: { styles: string; dynamic?: boolean }) => null;

export function styleSingleton(): Sheet {
  return () => null;
}

export function styleHookSingleton(): (styles: string, isDynamic?: boolean) => void {
  return () => {};
}

export function stylesheetSingleton(): { add(style: string): void; remove(): void } {
  return { add() {}, remove() {} };
}
