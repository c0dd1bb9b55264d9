import { createElement, lazy, type ComponentType } from 'react';

/** A screen loaded on first use; `preload()` starts loading it early (issue 22). */
export type LazyPage<P extends object> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * React.lazy for a named export, so each screen's code (and what only it imports) is a
 * chunk of its own, loaded when the route is first opened.
 *
 * Issue 22: once its code is in (preloaded beside the session and the data), the screen renders
 * at once instead of suspending a moment more — each suspense costs a reveal that React throttles
 * (about 300 ms), and a signed-in page went through three of them one after another.
 */
export function lazyPage<K extends string, P extends object>(
  load: () => Promise<{ [key in K]: ComponentType<P> }>,
  name: K,
): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module[name];
      return module;
    });
  const Lazy = lazy(async () => ({ default: (await preload())[name] }));
  function Page(props: P) {
    return createElement((loaded ?? Lazy) as ComponentType<P>, props);
  }
  Page.displayName = `Lazy(${name})`;
  return Object.assign(Page, { preload });
}
