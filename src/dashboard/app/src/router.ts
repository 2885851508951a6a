// A small client-side router over the History API: the server answers every unknown /dashboard/*
// path with the app's page (src/dashboard/static-files.ts), so deep links and reloads work. The
// environment lives in the address as ?env=test (live when absent), so that a link or a reload keeps
// the side the reseller was looking at.
import { h, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Environment } from './api.js';

export const base_path = '/dashboard';

export interface Place {
  /** Path inside the dashboard, without the base: "/", "/orders", "/orders/BV-…". */
  path: string;
  query: URLSearchParams;
  environment: Environment;
}

const listeners = new Set<() => void>();

function read_place(): Place {
  let path = location.pathname.startsWith(base_path) ? location.pathname.slice(base_path.length) : location.pathname;
  path = path.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(location.search);
  return { path, query, environment: query.get('env') === 'test' ? 'test' : 'live' };
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** The current place; re-renders the caller when it changes. */
export function use_place(): Place {
  const [place, set_place] = useState(read_place);
  useEffect(() => {
    const listener = () => set_place(read_place());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return place;
}

/** An address inside the dashboard for a path, an environment and optional query parameters. */
export function href_of(path: string, environment: Environment, query: Record<string, string | number | undefined | null> = {}): string {
  const params = new URLSearchParams();
  if (environment === 'test') params.set('env', 'test');
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return `${base_path}${path === '/' ? '/' : path}${search === '' ? '' : `?${search}`}`;
}

export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (href === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.scrollTo(0, 0);
  for (const listener of listeners) listener();
}

interface LinkProps {
  href: string;
  class?: string;
  children?: ComponentChildren;
  'aria-current'?: 'page' | undefined;
  title?: string;
}

/** An <a> that navigates inside the app; modified clicks (new tab, …) keep the browser's behaviour. */
export function Link(props: LinkProps) {
  const on_click = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return h('a', { ...props, onClick: on_click }, props.children);
}
