// Memoria as the operator (the legatus's rights) sees it: the edicta and acta, every agent's
// commentarii, an entry with its notes, revoking an edictum, publishing, search_memoria, and each
// agent's MEMORY.md and topic files (read-only).
import { html, useState, useEffect } from './vendor/htm-preact-standalone.js';
import { api, describe } from './api.js';

const TITLES = { edicta: 'Edicta', acta: 'Acta', commentarii: 'Commentarii' };

function Kind({ kind, agent, version, onOpen }) {
  const [entries, setEntries] = useState(null);
  const [error, setError] = useState(null);
  const path = kind === 'commentarii' ? '/memoria/commentarii/' + agent : '/memoria/' + kind;
  useEffect(() => {
    setError(null);
    api(path).then((r) => setEntries(r[kind]), (e) => setError(describe(e)));
  }, [path, version]);
  const label = kind === 'commentarii' ? 'commentarii of ' + agent : kind;
  return html`<section aria-label=${label}>
    <h3>${TITLES[kind]}${agent ? ' of ' + agent : ''}</h3>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <ul class="memoria-list">
      ${(entries || []).map((e) => html`<li key=${e.name}>
        <button type="button" class="link" aria-label=${'Read ' + label + ' ' + e.name} onClick=${() => onOpen(kind, e.name, agent)}>${e.name}</button>
        <span class="meta"> by ${e.author}${e.revoked ? ' · revoked' : ''}</span>
      </li>`)}
    </ul>
    ${entries && entries.length === 0 ? html`<p>None yet.</p>` : null}
  </section>`;
}

function Entry({ kind, name, agent, onChanged }) {
  const [entry, setEntry] = useState(null);
  const [error, setError] = useState(null);
  const [reason, setReason] = useState('');
  const path = '/memoria/' + kind + '/' + (agent ? agent + '/' : '') + encodeURIComponent(name);
  useEffect(() => {
    api(path).then(setEntry, (e) => setError(describe(e)));
  }, [path]);
  const revoke = async (e) => {
    e.preventDefault();
    try {
      setEntry(await api(path + '/revoke', { method: 'POST', body: reason.trim() ? { reason: reason.trim() } : {} }));
      onChanged();
    } catch (err) {
      setError(describe(err));
    }
  };
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!entry) return null;
  return html`<article class="memoria-entry" aria-label=${kind + ' ' + name}>
    <h3>${name}</h3>
    <p class="meta">${kind} · by ${entry.author} · ${entry.updated_at}${entry.revoked ? ' · revoked' : ''}</p>
    ${(entry.notes || []).map((n) => html`<div class="note"><p class="meta">${n.author} · ${n.timestamp}</p><pre>${n.text}</pre></div>`)}
    ${entry.revocation ? html`<p class="meta">Revoked by ${entry.revocation.by}: ${entry.revocation.reason}</p>` : null}
    ${kind === 'edicta' && !entry.revoked
      ? html`<form class="revoke" onSubmit=${revoke}>
          <label for="revoke-reason">Reason</label>
          <input id="revoke-reason" value=${reason} onInput=${(e) => setReason(e.target.value)} />
          <button type="submit" aria-label=${'Revoke edictum ' + name}>Revoke</button>
        </form>`
      : null}
  </article>`;
}

function Publish({ onPublished }) {
  const [kind, setKind] = useState('edicta');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [notice, setNotice] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    try {
      await api('/memoria/' + kind + '/' + encodeURIComponent(name.trim()), { method: 'POST', body: { text } });
      setNotice('Published ' + kind + ' ' + name.trim() + '.');
      setName('');
      setText('');
      onPublished();
    } catch (err) {
      setNotice(describe(err));
    }
  };
  return html`<form class="publish" onSubmit=${submit} aria-labelledby="publish-title">
    <h3 id="publish-title">Publish</h3>
    <label for="publish-kind">Kind</label>
    <select id="publish-kind" value=${kind} onChange=${(e) => setKind(e.target.value)}>
      <option value="edicta">edictum</option><option value="acta">actum</option>
    </select>
    <label for="publish-name">Name</label>
    <input id="publish-name" required value=${name} onInput=${(e) => setName(e.target.value)} />
    <label for="publish-text">Text</label>
    <textarea id="publish-text" required rows="4" value=${text} onInput=${(e) => setText(e.target.value)}></textarea>
    <button type="submit">Publish</button>
    <p role="status" class="notice">${notice || ''}</p>
  </form>`;
}

function Search({ onOpen }) {
  const [query, setQuery] = useState('');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      setResult(await api('/memoria/search?q=' + encodeURIComponent(query)));
    } catch (err) {
      setError(describe(err));
    }
  };
  return html`<form class="search" role="search" onSubmit=${submit}>
    <label for="memoria-search">Search memoria</label>
    <input id="memoria-search" type="search" value=${query} onInput=${(e) => setQuery(e.target.value)} />
    <button type="submit">Search</button>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${result
      ? html`<ul class="memoria-list" aria-label="Search results">
          ${result.hits.length === 0 ? html`<li>Nothing holds every word of “${result.query}”.</li>` : null}
          ${result.hits.map((h) => html`<li>
            <button type="button" class="link" onClick=${() => onOpen(h.kind, h.name, h.agent)}>${h.kind}${h.agent ? ' of ' + h.agent : ''}: ${h.name}</button>
            <span class="meta"> ${h.snippet}</span></li>`)}
        </ul>`
      : null}
  </form>`;
}

function MemoryFiles({ agent }) {
  const [memory, setMemory] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setError(null);
    api('/agents/' + agent + '/memory').then(setMemory, (e) => setError(describe(e)));
  }, [agent]);
  return html`<section class="memory-files" aria-label=${agent + "'s memory files"}>
    <h3>${agent}'s memory files (read-only)</h3>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${memory && memory.files.length === 0 ? html`<p>No MEMORY.md yet.</p>` : null}
    ${memory ? memory.files.map((f) => html`<details open=${f.name === 'MEMORY.md'}>
      <summary>${f.name}</summary><pre>${f.text}</pre></details>`) : null}
  </section>`;
}

export function Memoria() {
  const [open, setOpen] = useState(null);
  const [version, setVersion] = useState(0);
  const [agents, setAgents] = useState([]);
  const [agent, setAgent] = useState(null);
  useEffect(() => {
    api('/status').then((s) => {
      const names = s.agents.map((a) => a.owner);
      setAgents(names);
      setAgent((a) => a || names.find((n) => n !== 'legatus') || names[0]);
    }, () => {});
  }, []);
  const show = (k, n, a) => setOpen({ k, n, a });
  const changed = () => setVersion((v) => v + 1);
  return html`<section class="memoria" aria-labelledby="memoria-title">
    <h2 id="memoria-title">Memoria</h2>
    <${Search} onOpen=${show} />
    <div class="columns">
      <${Kind} kind="edicta" version=${version} onOpen=${show} />
      <${Kind} kind="acta" version=${version} onOpen=${show} />
    </div>
    ${open ? html`<${Entry} key=${open.k + open.a + open.n} kind=${open.k} name=${open.n} agent=${open.a} onChanged=${changed} />` : null}
    <${Publish} onPublished=${changed} />
    <label for="memoria-agent">Agent</label>
    <select id="memoria-agent" value=${agent || ''} onChange=${(e) => setAgent(e.target.value)}>
      ${agents.map((a) => html`<option value=${a}>${a}</option>`)}
    </select>
    ${agent
      ? html`<div class="columns">
          <${Kind} kind="commentarii" agent=${agent} version=${version} onOpen=${show} />
          <${MemoryFiles} agent=${agent} />
        </div>`
      : null}
  </section>`;
}
