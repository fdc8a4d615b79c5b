// The sign-in form: the access token is checked (by `check`, an API call) and then kept for this
// browser session only; a refused token says why. `notice` is shown until the person signs in again
// (why the console signed them out).
import { html, useState } from './vendor/htm-preact-standalone.js';
import { session, ApiError, describe } from './api.js';

export function SignIn({ onSignedIn, check, title, hint, notice }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(notice || null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await check(token.trim());
      session.signIn(token.trim());
      onSignedIn(token.trim());
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 403
          ? 'This token may not do this: ' + err.message
          : describe(err),
      );
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="sign-in">
    <h1>${title}</h1>
    <form onSubmit=${submit}>
      <label for="token">Access token</label>
      <input id="token" type="password" autocomplete="off" required value=${token}
        onInput=${(e) => setToken(e.target.value)} autofocus />
      <button type="submit" disabled=${busy}>Sign in</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </form>
    <p class="hint">${hint}</p>
  </main>`;
}
