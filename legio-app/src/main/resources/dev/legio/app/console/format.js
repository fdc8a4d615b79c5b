// Numbers as people read them: 200K tokens, $0.0123, 42%.

export function tokens(n) {
  if (n === null || n === undefined) return '–';
  if (n >= 1_000_000) return (n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1) + 'M';
  if (n >= 1_000) return (n / 1_000).toFixed(n % 1_000 === 0 ? 0 : 1) + 'K';
  return String(n);
}

export function cost(usd) {
  if (usd === null || usd === undefined) return 'no price';
  return '$' + (usd >= 1 ? usd.toFixed(2) : usd.toFixed(4));
}

export function percent(part, whole) {
  return whole > 0 ? Math.round((100 * part) / whole) + '%' : '–';
}

export function count(n) {
  return n === null || n === undefined ? '–' : n.toLocaleString('en');
}
