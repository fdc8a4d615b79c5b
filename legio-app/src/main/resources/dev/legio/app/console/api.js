// The console's one way to the server: the public HTTP API (/api/v1), with the access token the
// person typed in, kept in sessionStorage (this browser tab's session only, never in a URL).

// The viewer page keeps its (gateway) token apart from the console's.
const TOKEN_KEY = location.pathname.startsWith('/viewer/') ? 'legio.viewer.token' : 'legio.token';

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** An answer other than 2xx: the status and the API's {"error": "..."} text. */
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** One API call: JSON in, JSON out; throws ApiError (status 0: the server cannot be reached). */
export async function api(path, { method = 'GET', body, token, key } = {}) {
  const headers = { Authorization: 'Bearer ' + (token ?? session.token() ?? '') };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key !== undefined) headers['Idempotency-Key'] = key;
  let response;
  try {
    response = await fetch('/api/v1' + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'The server cannot be reached (is `legio serve` running?). Retrying…');
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || response.statusText, data);
  }
  return data;
}

/**
 * A new Idempotency-Key: a random UUID (crypto.randomUUID needs a secure context, which a console
 * reached over plain HTTP on another address is not; getRandomValues works everywhere).
 */
export function newRequestKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The text a person reads for a failed call. */
export function describe(error) {
  if (error instanceof ApiError && error.status === 401) {
    return 'Wrong access token: ' + error.message;
  }
  return error instanceof ApiError ? error.message : String(error);
}
