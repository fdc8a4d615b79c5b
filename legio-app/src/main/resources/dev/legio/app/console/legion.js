// What the console knows of the legion, kept current: the conversation (GET /history, then the
// event stream resuming after its last message), the agents' and channels' status (GET /status,
// read again when an event says something changed), each session's cost (GET /usage by session),
// live activity and status lines, and rebuilds by reason seen since the page opened.
//
// The costs sum the whole usage ledger, a heavy query on a busy castra: they are read at most once
// every USAGE_EVERY_MS, the events in between coalesced into one read at the end of the interval
// (so the page shows the costs as they are at most that long after the last event).
import { useState, useEffect, useRef, useCallback } from './vendor/htm-preact-standalone.js';
import { api, ApiError } from './api.js';
import { followEvents } from './events.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The least time between two reads of the costs (GET /usage by session). */
export const USAGE_EVERY_MS = 5000;

export function useLegion(token, onUnauthorised) {
  const [messages, setMessages] = useState([]);
  const [status, setStatus] = useState(null);
  const [costs, setCosts] = useState({});
  const [live, setLive] = useState({});
  const [rebuilds, setRebuilds] = useState({});
  const [connection, setConnection] = useState('connecting');
  const refreshTimer = useRef(null);
  const usageTimer = useRef(null);
  const usageReadAt = useRef(-Infinity); // when the costs were last asked for (performance.now())
  const newest = useRef(0); // the newest sequence the page shows
  useEffect(() => {
    newest.current = messages.length > 0 ? messages[messages.length - 1].sequence : 0;
  }, [messages]);

  const readUsage = useCallback(async () => {
    usageReadAt.current = performance.now();
    try {
      const usage = await api('/usage?since=3650d&by=session');
      const bySession = {};
      for (const row of usage.rows) bySession[row.group] = row;
      setCosts(bySession);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorised(e);
    }
  }, [token]);

  // The costs read again: now if the last read is USAGE_EVERY_MS old, else once at the end of the
  // interval, however many events ask for it meanwhile.
  const usageSoon = useCallback(() => {
    if (usageTimer.current !== null) return;
    const wait = Math.max(0, usageReadAt.current + USAGE_EVERY_MS - performance.now());
    usageTimer.current = setTimeout(() => {
      usageTimer.current = null;
      readUsage();
    }, wait);
  }, [readUsage]);

  const refreshStatus = useCallback(async () => {
    usageSoon();
    try {
      setStatus(await api('/status'));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorised(e);
    }
  }, [token, usageSoon]);

  const refreshSoon = useCallback(() => {
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(refreshStatus, 150);
  }, [refreshStatus]);

  useEffect(() => {
    let stopped = false;
    let follower = null;
    const onEvent = (name, data) => {
      if (name === 'message') {
        setMessages((list) =>
          list.length > 0 && list[list.length - 1].sequence >= data.sequence
            ? list
            : [...list, data],
        );
        refreshSoon();
      } else if (name === 'ready' && data.sequence < newest.current) {
        // The log is behind what the page shows (restored from an older copy, or replaced): show it
        // as it is now. Live messages from here on come after `data.sequence`; the history before
        // them is read again and put in front.
        setMessages([]);
        api('/history?limit=200')
          .then((history) =>
            setMessages((list) => [
              ...history.messages.filter((m) => list.length === 0 || m.sequence < list[0].sequence),
              ...list,
            ]),
          )
          .catch(() => {});
      } else if (name === 'activity') {
        setLive((l) => ({
          ...l,
          [data.agent]: { activity: data.status, text: data.status === 'working' ? l[data.agent]?.text : null },
        }));
        refreshSoon();
      } else if (name === 'status') {
        setLive((l) => ({ ...l, [data.agent]: { activity: 'working', text: data.text } }));
      } else if (name === 'rebuild') {
        setRebuilds((r) => {
          const mine = { ...(r[data.agent] || {}) };
          mine[data.reason] = (mine[data.reason] || 0) + 1;
          return { ...r, [data.agent]: mine };
        });
        refreshSoon();
      } else if (name === 'compaction') {
        setLive((l) => ({
          ...l,
          [data.agent]: { ...l[data.agent], text: '🗜 compaction ' + data.phase },
        }));
      }
    };
    const onState = (state) => {
      if (state === 'unauthorised') onUnauthorised();
      setConnection(state);
      if (state === 'live') {
        // After a restart nothing of the old activity survives: read the status again.
        setLive({});
        refreshStatus();
      }
    };
    (async () => {
      let after = 0;
      for (let delay = 250; !stopped; delay = Math.min(delay * 2, 4000)) {
        try {
          const history = await api('/history?limit=200');
          setMessages(history.messages);
          if (history.messages.length > 0) after = history.messages.at(-1).sequence;
          break;
        } catch (e) {
          if (e instanceof ApiError && e.status === 401) {
            onUnauthorised(e);
            return;
          }
          setConnection('reconnecting');
          await sleep(delay);
        }
      }
      if (!stopped) follower = followEvents({ token, after, onEvent, onState });
    })();
    refreshStatus();
    return () => {
      stopped = true;
      if (follower) follower.stop();
      clearTimeout(refreshTimer.current);
      clearTimeout(usageTimer.current);
    };
  }, [token]);

  return { messages, status, costs, live, rebuilds, connection, refreshStatus };
}
