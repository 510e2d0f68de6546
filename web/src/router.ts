import { signal } from '@preact/signals';

/** The current location (path and query), following pushState and the back button. */
export const location = signal(new URL(window.location.href));

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  location.value = new URL(window.location.href);
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  location.value = new URL(window.location.href);
});

/** Same-origin links move without a page load (with modifier keys, the browser does what it always does). */
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download') || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});
