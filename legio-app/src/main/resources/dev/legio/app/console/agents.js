// The agents panel: each agent and open channel with its status (live while it works), back-end,
// model, context use as a bar, tokens and cost of its session, rebuilds by reason, and a reset button
// (DELETE /api/v1/sessions/{owner}). Channels idle past their timeout or closed are counted, not
// listed (GET /status lists the open ones, at most 100; `channel_counts` says how many there are).
// Session rows that could not be read as a record (`damaged_sessions`) are named below them, each
// with what is wrong and what to do, as `legio status` names them.
import { html, useState } from './vendor/htm-preact-standalone.js';
import { api, describe } from './api.js';
import * as format from './format.js';

function Owner({ entry, cost, live, rebuilds, onReset }) {
  const owner = entry.owner;
  const activity = (live && live.activity) || entry.status;
  const context = entry.context;
  // By reason since the node started (from /status), else as seen on the event stream.
  const reasons = Object.entries(entry.rebuilds_by_reason || rebuilds || {});
  return html`<li class="owner" data-owner=${owner} aria-label=${owner}>
    <div class="owner-head">
      <strong>${owner}</strong>
      <span class=${'activity ' + activity} data-activity=${activity}>${activity}</span>
    </div>
    ${entry.description ? html`<p class="description">${entry.description}</p>` : null}
    ${live && live.activity === 'working' ? html`<p class="live-status">${live.text || '⏳ Thinking...'}</p>` : null}
    <dl>
      <dt>Back-end</dt><dd>${entry.backend || '–'}</dd>
      ${'model' in entry ? html`<dt>Model</dt><dd>${entry.model || 'back-end default'}</dd>` : null}
      <dt>Session</dt><dd>${entry.session}${entry.close_reason ? ' (' + entry.close_reason + ')' : ''}</dd>
      <dt>Context</dt>
      <dd>
        ${context
          ? html`<meter min="0" max=${context.window} value=${context.tokens}
                aria-label=${owner + ' context use'}></meter>
              <span>${format.percent(context.tokens, context.window)} of ${format.tokens(context.window)}</span>`
          : '–'}
      </dd>
      <dt>Tokens</dt><dd>${format.tokens(entry.input_tokens)} in${cost ? ', ' + format.tokens(cost.output_tokens) + ' out' : ''}</dd>
      <dt>Cost</dt><dd>${cost ? format.cost(cost.cost_usd) : '–'}</dd>
      <dt>Messages</dt><dd>${entry.messages}</dd>
      <dt>Rebuilds</dt>
      <dd>${entry.rebuilds}${reasons.length ? ' (' + reasons.map(([r, n]) => r + ': ' + n).join(', ') + ')' : ''}</dd>
    </dl>
    ${entry.session === 'active'
      ? html`<button type="button" class="secondary" aria-label=${'Reset ' + owner + "'s session"}
          onClick=${() => onReset(owner)}>Reset session</button>`
      : null}
  </li>`;
}

// What the channel list leaves out, in words; null when it lists every channel.
function leftOut(c) {
  if (!c || c.listed === c.all) return null;
  if (c.listed < c.open) {
    return `The ${format.count(c.listed)} most recently used of ${format.count(c.open)} open channels (${format.count(c.all)} in all).`;
  }
  const rest = c.all - c.listed;
  return `${format.count(rest)} idle or closed ${rest === 1 ? 'channel' : 'channels'} not listed.`;
}

// A session row that could not be read as a record: which, what is wrong, what to do.
function Damaged({ row }) {
  return html`<li class="damaged" data-damaged-owner=${row.owner}>
    <p>The session record of <strong>${row.owner}</strong>${row.session_id ? ' (session ' + row.session_id + ')' : ''}
      is damaged: ${row.problem}.</p>
    <p class="fix">${row.fix}</p>
  </li>`;
}

export function AgentsPanel({ legion }) {
  const { status, costs, live, rebuilds, refreshStatus } = legion;
  const [notice, setNotice] = useState(null);
  const reset = async (owner) => {
    try {
      await api('/sessions/' + encodeURIComponent(owner), { method: 'DELETE' });
      setNotice(owner + "'s session was reset; the next message starts a new one.");
    } catch (e) {
      setNotice(describe(e));
    }
    refreshStatus();
  };
  const list = (entries) =>
    entries.map(
      (e) => html`<${Owner} key=${e.owner} entry=${e} live=${live[e.owner]} rebuilds=${rebuilds[e.owner]}
        cost=${e.session_id ? costs[e.session_id] : null} onReset=${reset} />`,
    );
  return html`<aside class="agents" aria-labelledby="agents-title">
    <h2 id="agents-title">Agents</h2>
    ${status ? html`<p class="backend">Back-end: ${status.backend}</p>` : html`<p>Loading…</p>`}
    <p role="status" class="notice">${notice || ''}</p>
    <ul class="owners" aria-label="Agents">${status ? list(status.agents) : null}</ul>
    ${status && status.channel_counts && status.channel_counts.all > 0
      ? html`<h3>Channels <span class="count">(${format.count(status.channel_counts.open)} open)</span></h3>
          ${status.channels.length > 0
            ? html`<ul class="owners" aria-label="Channels">${list(status.channels)}</ul>`
            : null}
          ${leftOut(status.channel_counts)
            ? html`<p class="channels-left-out" aria-label="Channels not listed">${leftOut(status.channel_counts)}</p>`
            : null}`
      : null}
    ${status && status.damaged_sessions && status.damaged_sessions.length > 0
      ? html`<h3>Damaged session records</h3>
          <ul class="damaged-sessions" aria-label="Damaged session records">
            ${status.damaged_sessions.map((d) => html`<${Damaged} key=${d.owner} row=${d} />`)}
          </ul>`
      : null}
    ${status && status.problems && status.problems.length > 0
      ? html`<h3>Prompt problems</h3><ul>${status.problems.map((p) => html`<li>${String(p)}</li>`)}</ul>`
      : null}
  </aside>`;
}
