import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, keepTabOnChunkFailure, reloadWhenReachable } from './chunk-errors.ts';

describe('a page whose code fails to arrive', () => {
  it('is told apart from other errors', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Internal error'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('keeps the router from reloading the tab by itself', () => {
    const stored = new Map<string, string>();
    const target = new EventTarget() as Window;
    Object.assign(target, {
      sessionStorage: { setItem: (k: string, v: string) => void stored.set(k, v) },
    });
    keepTabOnChunkFailure(target);
    const event = Object.assign(new Event('vite:preloadError'), {
      payload: new TypeError('Failed to fetch dynamically imported module: /assets/audit.js'),
    });
    target.dispatchEvent(event);
    expect(
      stored.get(
        'tanstack_router_reload:Failed to fetch dynamically imported module: /assets/audit.js',
      ),
    ).toBe('1');
  });

  it('reloads only once the server answers', async () => {
    const reload = vi.fn();
    const down = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await reloadWhenReachable(down as unknown as typeof fetch, reload)).toBe(false);
    const unhealthy = vi.fn(() => Promise.resolve(new Response('', { status: 503 })));
    expect(await reloadWhenReachable(unhealthy as unknown as typeof fetch, reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    const up = vi.fn(() => Promise.resolve(new Response('ok')));
    expect(await reloadWhenReachable(up as unknown as typeof fetch, reload)).toBe(true);
    expect(reload).toHaveBeenCalledOnce();
  });
});
