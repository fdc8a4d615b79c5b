// The operator's console at "/": sign in with an access token, then the conversation, the agents
// panel, sessions, memoria and usage. Everything goes through the public API (api.js).
import { html, render, useState } from './vendor/htm-preact-standalone.js';
import { api, session } from './api.js';
import { SignIn } from './signin.js';
import { useLegion } from './legion.js';
import { Conversation } from './conversation.js';
import { AgentsPanel } from './agents.js';
import { Sessions } from './sessions.js';
import { Memoria } from './memoria.js';
import { Usage } from './usage.js';

const VIEWS = [
  ['conversation', 'Conversation'],
  ['sessions', 'Sessions'],
  ['memoria', 'Memoria'],
  ['usage', 'Usage'],
];

const CONNECTION = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Connection lost; reconnecting…',
  unauthorised: 'Signed out: the token was refused',
};

function Console({ token, onSignOut }) {
  const legion = useLegion(token, onSignOut);
  const [view, setView] = useState('conversation');
  return html`<div class="console">
    <header class="top">
      <h1>Legio</h1>
      <nav aria-label="Views">
        ${VIEWS.map(
          ([id, label]) => html`<button type="button" aria-pressed=${view === id ? 'true' : 'false'}
            onClick=${() => setView(id)}>${label}</button>`,
        )}
      </nav>
      <p class=${'connection ' + legion.connection} role="status" aria-label="Connection">
        ${CONNECTION[legion.connection] || legion.connection}</p>
      <button type="button" class="secondary" onClick=${onSignOut}>Sign out</button>
    </header>
    <main>
      ${view === 'conversation' ? html`<${Conversation} legion=${legion} />` : null}
      ${view === 'sessions' ? html`<${Sessions} />` : null}
      ${view === 'memoria' ? html`<${Memoria} />` : null}
      ${view === 'usage' ? html`<${Usage} />` : null}
    </main>
    <${AgentsPanel} legion=${legion} />
  </div>`;
}

function App() {
  const [token, setToken] = useState(session.token());
  const signOut = () => {
    session.signOut();
    setToken(null);
  };
  if (!token) {
    return html`<${SignIn} title="Legio console" onSignedIn=${setToken}
      check=${(t) => api('/status', { token: t })}
      hint="Make an operator token with: legio token create console --role operator" />`;
  }
  return html`<${Console} key=${token} token=${token} onSignOut=${signOut} />`;
}

render(html`<${App} />`, document.getElementById('app'));
