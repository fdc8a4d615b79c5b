// GET /api/v1/events read with fetch() (a browser's EventSource cannot send the Authorization
// header, and a token does not belong in a URL). The text/event-stream format is parsed as the
// HTML standard defines it; after a dropped connection the stream is asked again with
// Last-Event-ID: the last message sequence received, so no message is missed or shown twice.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Parses a text/event-stream body into {event, id, data} objects. */
async function* serverSentEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = { event: 'message', id: null, data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (event.data.length > 0) yield { ...event, data: event.data.join('\n') };
        event = { event: 'message', id: null, data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let text = colon < 0 ? '' : line.slice(colon + 1);
      if (text.startsWith(' ')) text = text.slice(1);
      if (field === 'event') event.event = text;
      else if (field === 'data') event.data.push(text);
      else if (field === 'id') event.id = text;
    }
  }
}

/**
 * Follows the event stream until stop() is called: onEvent(name, data, id) for each event,
 * onState('live' | 'reconnecting' | 'unauthorised'). Resumes after `after` (a message sequence).
 */
export function followEvents({ token, after, onEvent, onState }) {
  let last = after;
  let stopped = false;
  let controller = null;
  (async () => {
    let delay = 250;
    while (!stopped) {
      controller = new AbortController();
      try {
        const headers = { Authorization: 'Bearer ' + token, Accept: 'text/event-stream' };
        if (last !== null && last !== undefined) headers['Last-Event-ID'] = String(last);
        const response = await fetch('/api/v1/events', {
          headers,
          signal: controller.signal,
          cache: 'no-store',
        });
        if (response.status === 401) {
          onState('unauthorised');
          return;
        }
        if (response.ok && response.body) {
          onState('live');
          delay = 250;
          for await (const e of serverSentEvents(response.body)) {
            let data = null;
            try {
              data = JSON.parse(e.data);
            } catch (ignored) {
              continue;
            }
            if (e.event === 'message' && e.id !== null) last = Number(e.id);
            // A log behind the last message seen (restored from an older copy): resume from its end.
            if (e.event === 'ready' && typeof data.sequence === 'number' && data.sequence < last) {
              last = data.sequence;
            }
            onEvent(e.event, data, e.id);
          }
        }
      } catch (e) {
        // dropped, refused or aborted: try again below unless stopped
      }
      if (stopped) return;
      onState('reconnecting');
      await sleep(delay);
      delay = Math.min(delay * 2, 4000);
    }
  })();
  return {
    stop() {
      stopped = true;
      if (controller) controller.abort();
    },
  };
}
