// Message text rendered safely: every character as text (never as HTML), fenced code blocks as
// <pre><code>, `inline code` as <code>, and http(s) links as links that open without giving the
// new page a handle on this one. Nothing here builds markup from strings: only Preact nodes.
import { html } from './vendor/htm-preact-standalone.js';

const FENCE = /```[^\n`]*\n?([\s\S]*?)```/g;
const INLINE = /(`[^`\n]+`)|(https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]])/g;

/** A link's target when it is a well-formed http or https URL, else null. */
export function safeHref(text) {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch (e) {
    return null;
  }
}

function inline(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    if (m[1]) {
      out.push(html`<code>${m[1].slice(1, -1)}</code>`);
    } else {
      const href = safeHref(m[2]);
      out.push(
        href
          ? html`<a href=${href} rel="noopener noreferrer" target="_blank">${m[2]}</a>`
          : m[2],
      );
    }
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The nodes of a message's text. */
export function RichText({ text }) {
  const parts = [];
  let at = 0;
  for (const m of String(text ?? '').matchAll(FENCE)) {
    if (m.index > at) parts.push(html`<p class="text">${inline(text.slice(at, m.index))}</p>`);
    parts.push(html`<pre><code>${m[1]}</code></pre>`);
    at = m.index + m[0].length;
  }
  if (at < String(text ?? '').length) {
    parts.push(html`<p class="text">${inline(String(text).slice(at))}</p>`);
  }
  return parts;
}
