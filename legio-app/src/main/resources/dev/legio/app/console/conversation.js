// The conversation: the praetorium as caesar sees it (role "log", newest at the bottom), the
// agents at work, and the message box (Enter sends, Shift+Enter is a new line, "@" completes agent
// names from a list that the arrow keys, Tab/Enter and Escape drive).
import { html, useState, useRef, useEffect, useLayoutEffect } from './vendor/htm-preact-standalone.js';
import { api, describe, newRequestKey } from './api.js';
import { RichText } from './text.js';

function Message({ message, descriptions }) {
  const agent = descriptions[message.sender];
  const to = message.audience && message.audience.length ? message.audience.join(', ') : 'all';
  return html`<article class=${'message' + (agent !== undefined ? ' from-agent' : '')}
      data-sequence=${message.sequence} data-sender=${message.sender}
      aria-label=${'Message ' + message.sequence + ' from ' + message.sender}>
    <header>
      <span class="sender">${agent !== undefined ? '⚔️ ' : ''}${message.sender}</span>
      ${agent ? html` <span class="description">${agent}</span>` : null}
      <span class="audience"> → ${to}</span>
      <time datetime=${message.timestamp}>${new Date(message.timestamp).toLocaleTimeString()}</time>
    </header>
    <div class="body"><${RichText} text=${message.text} /></div>
  </article>`;
}

function Working({ live, descriptions }) {
  const busy = Object.entries(live).filter(([, l]) => l && l.activity === 'working');
  return html`<div class="working" role="status" aria-label="Agents at work">
    ${busy.map(
      ([agent, l]) => html`<p class="agent-working" data-agent=${agent}>
        <span class="sender">⚔️ ${agent}</span>
        ${descriptions[agent] ? html` <span class="description">${descriptions[agent]}</span>` : null}
        <span class="live-status"> ${l.text || '⏳ Thinking...'}</span>
      </p>`,
    )}
  </div>`;
}

/** The "@name" being typed just before the caret, or null. */
function mentionAt(text, caret) {
  const m = /(^|\s)@([a-z0-9_-]*)$/i.exec(text.slice(0, caret));
  return m ? { start: caret - m[2].length, partial: m[2].toLowerCase() } : null;
}

function Composer({ agents }) {
  const [text, setText] = useState('');
  const [error, setError] = useState(null);
  const [sending, setSending] = useState(0);
  const [mention, setMention] = useState(null);
  const [choice, setChoice] = useState(0);
  const box = useRef(null);
  // The messages the server did not take, by their text, each with the Idempotency-Key it went
  // under: only such a message is sent again under its first key, never one still on its way.
  const failed = useRef(new Map());
  // Where the caret goes once the box shows a completed name: set as the box is updated, before
  // the next key is handled. (Set a frame later, it moved the caret back behind whatever a fast
  // typist had typed meanwhile, and the next completion replaced the wrong text.)
  const caretAfterCompletion = useRef(null);
  useLayoutEffect(() => {
    const at = caretAfterCompletion.current;
    if (at !== null && box.current) {
      caretAfterCompletion.current = null;
      box.current.setSelectionRange(at, at);
    }
  });
  const options = mention ? agents.filter((a) => a.startsWith(mention.partial)).slice(0, 8) : [];

  const update = (value, caret) => {
    setText(value);
    setMention(mentionAt(value, caret));
    setChoice(0);
  };
  const complete = (name) => {
    const caret = box.current.selectionStart;
    const value = text.slice(0, mention.start) + name + ' ' + text.slice(caret);
    caretAfterCompletion.current = mention.start + name.length + 1;
    setText(value);
    setMention(null);
  };
  const send = async () => {
    const message = text;
    if (message.trim() === '') return;
    setText('');
    setMention(null);
    setError(null);
    setSending((n) => n + 1);
    // A message sent again as it was, after a failure, goes under its first key: the server keeps
    // it one request (its turns run again or answer from the log), never a second copy. The same
    // text typed again while the first is still waiting for its replies is a message of its own:
    // under the first's key the server would only wait for the first's answers and log it once.
    const key = failed.current.get(message) ?? newRequestKey();
    failed.current.delete(message);
    try {
      await api('/messages', { method: 'POST', body: { text: message }, key });
    } catch (e) {
      failed.current.set(message, key);
      setError(describe(e) + (e.body && e.body.agents ? ' (agents: ' + e.body.agents.join(', ') + ')' : ''));
      setText((t) => (t === '' ? message : t));
    } finally {
      setSending((n) => n - 1);
    }
  };
  const onKeyDown = (e) => {
    if (options.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : options.length - 1;
        setChoice((c) => (c + step) % options.length);
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        complete(options[Math.min(choice, options.length - 1)]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setMention(null);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return html`<form class="composer" onSubmit=${(e) => { e.preventDefault(); send(); }}>
    <label for="message" class="visually-hidden">Message</label>
    <textarea id="message" ref=${box} rows="3" value=${text}
      placeholder="@vorenus @pullo … (Enter sends, Shift+Enter: new line)"
      aria-autocomplete="list" aria-controls="mentions" aria-expanded=${options.length > 0 ? 'true' : 'false'}
      aria-activedescendant=${options.length > 0 ? 'mention-' + options[Math.min(choice, options.length - 1)] : undefined}
      onInput=${(e) => update(e.target.value, e.target.selectionStart)}
      onKeyDown=${onKeyDown}></textarea>
    <ul id="mentions" role="listbox" aria-label="Agents" hidden=${options.length === 0}>
      ${options.map(
        (name, i) => html`<li id=${'mention-' + name} role="option" aria-selected=${i === choice ? 'true' : 'false'}
          onMouseDown=${(e) => { e.preventDefault(); complete(name); }}>@${name}</li>`,
      )}
    </ul>
    <button type="submit">Send</button>
    <p class="sending" aria-live="polite">${sending > 0 ? 'Waiting for the replies…' : ''}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </form>`;
}

export function Conversation({ legion }) {
  const { messages, status, live } = legion;
  const descriptions = {};
  for (const a of (status && status.agents) || []) descriptions[a.owner] = a.description || '';
  const agents = Object.keys(descriptions);
  const log = useRef(null);
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, live]);
  return html`<section class="conversation" aria-labelledby="conversation-title">
    <h2 id="conversation-title">Conversation</h2>
    <div class="log" role="log" aria-label="Conversation" aria-live="polite" ref=${log} tabindex="0">
      ${messages.length === 0 ? html`<p class="empty">No messages yet. Say something to the legion below.</p>` : null}
      ${messages.map((m) => html`<${Message} key=${m.sequence} message=${m} descriptions=${descriptions} />`)}
    </div>
    <${Working} live=${live} descriptions=${descriptions} />
    <${Composer} agents=${agents} />
  </section>`;
}
