import { forgetToken, getJson, keepToken, storedToken, Unauthorised } from './api.js';
import { el, messageBox, show } from './dom.js';
import { showItem } from './item-page.js';
import { showLog } from './log-page.js';
import { showLogs } from './logs-page.js';

/**
 * The operators' console: a sign-in, the import logs with running jobs above them, one log's page
 * and one item's in a log. Pages are chosen by the path, so a log's page is a link that can be shared and reloaded.
 */
const main = document.getElementById('main') as HTMLElement;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;
/** Stops what the page on show is following (job event streams). */
let leaving = new AbortController();

function signInForm(problem?: string): void {
  signOut.hidden = true;
  const input = el('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
  });
  const form = el(
    'form',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    el('div', { class: 'field' }, el('label', { for: 'token' }, 'Token'), input),
    el('button', { type: 'submit' }, 'Sign in'),
    problem ? messageBox(problem, 'error') : null,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn(input.value.trim());
  });
  show(main, el('h1', { id: 'sign-in-title' }, 'Sign in'), el('p', {}, 'Sign in with an ops token.'), form);
  document.title = 'Sign in · Import console';
  input.focus();
}

async function signIn(token: string): Promise<void> {
  if (token === '') return signInForm('Enter a token.');
  try {
    await getJson('/import/logs?limit=1', token);
  } catch (error) {
    return signInForm(error instanceof Unauthorised ? 'That token is not a valid ops token.' : String(error));
  }
  keepToken(token);
  await route();
}

/** Shows the page the path names, or the sign-in when there is no token (or it stopped working). */
async function route(): Promise<void> {
  leaving.abort();
  leaving = new AbortController();
  if (storedToken() === null) return signInForm();
  signOut.hidden = false;
  const logMatch = /^\/console\/logs\/([^/]+)\/?$/.exec(location.pathname);
  const itemMatch = /^\/console\/logs\/([^/]+)\/items\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (itemMatch) await showItem(main, decodeURIComponent(itemMatch[1]), decodeURIComponent(itemMatch[2]));
    else if (logMatch) await showLog(main, decodeURIComponent(logMatch[1]));
    else await showLogs(main, leaving.signal);
  } catch (error) {
    if (error instanceof Unauthorised) {
      forgetToken();
      return signInForm('The token was refused; sign in again.');
    }
    show(main, el('h1', {}, 'Something went wrong'), messageBox(String(error), 'error'));
  }
  main.focus();
}

/** Links inside the console change the page without a reload; the browser's back button works too. */
document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest('a');
  if (!link || link.origin !== location.origin || !link.pathname.startsWith('/console')) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  history.pushState(null, '', link.pathname + link.search);
  void route();
});
window.addEventListener('popstate', () => void route());
signOut.addEventListener('click', () => {
  forgetToken();
  leaving.abort();
  history.pushState(null, '', '/console');
  signInForm();
});

void route();
