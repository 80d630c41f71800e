// Readable messages for problems (409 refusals, 404 links, 422 …) and connection trouble.
import { el } from './screen.js';

const host = () => document.getElementById('toasts');

/**
 * Shows a problem+json style message: { title, detail, status?, code?, choices? }. `tone` `info` is for what went
 * through another way (a guard's redirect), not for a refusal.
 */
export function showProblem(problem, { timeout = 5000, tone } = {}) {
  const box = host();
  while (box.children.length >= 3) box.firstElementChild.remove();
  const status = problem.status ? `${problem.status}` : '';
  const meta = [status, problem.code].filter(Boolean).join(' · ');
  const close = el('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss message', text: '×' });
  const kind = tone === 'info' ? 'toast-info' : problem.status >= 500 || !problem.status ? 'toast-bad' : '';
  const toast = el('div', { class: `toast ${kind}`, role: 'alert', 'data-testid': 'toast' },
    el('div', { class: 'toast-body' },
      el('strong', { class: 'toast-title', 'data-testid': 'toast-title', text: problem.title || 'Something went wrong' }),
      problem.detail ? el('p', { class: 'toast-detail', 'data-testid': 'toast-detail', text: problem.detail }) : null,
      Array.isArray(problem.choices) && problem.choices.length
        ? el('p', { class: 'toast-choices', text: `Valid: ${problem.choices.join(', ')}` }) : null,
      meta ? el('span', { class: 'toast-meta', text: meta }) : null),
    close);
  close.addEventListener('click', () => toast.remove());
  box.append(toast);
  if (timeout) setTimeout(() => toast.remove(), timeout);
  return toast;
}

export function clearToasts() {
  host().replaceChildren();
}
