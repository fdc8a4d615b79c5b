// Usage: tokens and cost per day and per agent (GET /api/v1/usage), each as an SVG bar chart with
// its table beside it.
import { html, useState, useEffect } from './vendor/htm-preact-standalone.js';
import { api, describe } from './api.js';
import * as format from './format.js';

const total = (r) => r.input_tokens + r.output_tokens;

function Chart({ rows, label }) {
  const width = 480;
  const bar = 22;
  const height = Math.max(bar, rows.length * (bar + 6));
  const max = Math.max(1, ...rows.map(total));
  return html`<svg class="chart" role="img" aria-label=${label} width=${width} height=${height}
      viewBox=${'0 0 ' + width + ' ' + height}>
    ${rows.map((r, i) => {
      const w = Math.max(1, Math.round(((width - 200) * total(r)) / max));
      const y = i * (bar + 6);
      return html`<g key=${r.group}>
        <text x="0" y=${y + bar * 0.7} class="chart-label">${r.group}</text>
        <rect x="110" y=${y} width=${w} height=${bar} class="chart-bar"><title>${r.group}: ${total(r)} tokens</title></rect>
        <text x=${114 + w} y=${y + bar * 0.7} class="chart-value">${format.tokens(total(r))}</text>
      </g>`;
    })}
  </svg>`;
}

function Table({ rows, totalRow, label }) {
  return html`<table aria-label=${label}>
    <thead><tr><th scope="col">${label.split(' ').pop()}</th><th scope="col">Turns</th><th scope="col">Input</th>
      <th scope="col">Output</th><th scope="col">Cost</th></tr></thead>
    <tbody>${rows.map((r) => html`<tr key=${r.group}><td>${r.group}</td><td>${r.turns}</td>
      <td>${format.tokens(r.input_tokens)}</td><td>${format.tokens(r.output_tokens)}</td><td>${format.cost(r.cost_usd)}</td></tr>`)}</tbody>
    ${totalRow ? html`<tfoot><tr><th scope="row">Total</th><td>${totalRow.turns}</td><td>${format.tokens(totalRow.input_tokens)}</td>
      <td>${format.tokens(totalRow.output_tokens)}</td><td>${format.cost(totalRow.cost_usd)}</td></tr></tfoot>` : null}
  </table>`;
}

export function Usage() {
  const [since, setSince] = useState('30d');
  const [reports, setReports] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    Promise.all([api('/usage?since=' + since + '&by=day'), api('/usage?since=' + since + '&by=agent')])
      .then(([day, agent]) => setReports({ day, agent }), (e) => setError(describe(e)));
  }, [since]);
  return html`<section class="usage" aria-labelledby="usage-title">
    <h2 id="usage-title">Usage</h2>
    <label for="usage-since">Period</label>
    <select id="usage-since" value=${since} onChange=${(e) => setSince(e.target.value)}>
      <option value="1d">1 day</option><option value="7d">7 days</option>
      <option value="30d">30 days</option><option value="365d">a year</option>
    </select>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${reports
      ? html`<div class="report"><${Chart} rows=${reports.day.rows} label="Tokens per day" />
            <${Table} rows=${reports.day.rows} totalRow=${reports.day.total} label="Usage per day" /></div>
          <div class="report"><${Chart} rows=${reports.agent.rows} label="Tokens per agent" />
            <${Table} rows=${reports.agent.rows} totalRow=${reports.agent.total} label="Usage per agent" /></div>`
      : null}
  </section>`;
}
