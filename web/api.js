// The explorer's API as promises. JSON is parsed keeping integers beyond 2^53 exact (a seed
// may be up to 2^64 - 1): JSON.rawJSON where the browser has it, so they go back unchanged.

const exactIntegers = typeof JSON.rawJSON === 'function';

export function parseExact(text) {
  return JSON.parse(text, (key, value, context) => {
    if (exactIntegers && typeof value === 'number' && !Number.isSafeInteger(value) &&
        context && /^-?\d+$/.test(context.source)) {
      return JSON.rawJSON(context.source);
    }
    return value;
  });
}

/// A value for a text field: raw integers as their digits.
export function showValue(value) {
  if (value && typeof value === 'object' && 'rawJSON' in value) return value.rawJSON;
  return String(value);
}

/// A whole number typed into a field, exact however large.
export function wholeNumber(text) {
  const n = Number(text);
  if (/^\d+$/.test(text) && !Number.isSafeInteger(n) && exactIntegers) return JSON.rawJSON(text);
  return n;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function request(url, options = {}) {
  const response = await fetch(url, { cache: 'no-store', ...options });
  const text = await response.text();
  let body = null;
  try {
    body = text ? parseExact(text) : null;
  } catch (e) {
    body = { error: text };
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export const api = {
  info: () => request('/api/info'),
  config: () => request('/api/config'),
  schema: () => request('/api/schema'),
  cell: (x, y) => request(`/api/cell?x=${x}&y=${y}`),
  stats: () => request('/api/stats'),
  putConfig: (config) => request('/api/config', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: typeof config === 'string' ? config : JSON.stringify(config),
  }),
  exportStatus: () => request('/api/export'),
  startExport: () => request('/api/export', { method: 'POST' }),
};
