// The explorer page: loads the map's info, schema and config, shows the 2D map and the
// config panel, and sends every change of the config to the server (PUT /api/config).
import { api, parseExact, showValue, wholeNumber } from './api.js';
import { ConfigPanel, setIn, escapeHtml } from './config_panel.js';
import { MapView } from './map_view.js';
import { TerrainView } from './view3d.js';

const $ = (id) => document.getElementById(id);

const state = {
  info: null,
  config: null,      // the resolved config as JSON (integers beyond 2^53 exact)
  undo: [],          // earlier configs, as JSON text
  view3d: null,
};
// For tests and the console.
window.terragrid = { state, lastCell: null, errors: [] };

const mapView = new MapView($('map'), $('legend'));
window.terragrid.mapView = mapView;

function clone(config) {
  return parseExact(JSON.stringify(config));
}

function showErrors(error) {
  const box = $('errors');
  if (!error) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  const problems = error.body && error.body.problems ? error.body.problems : [error.message];
  box.textContent = problems.join('\n');
  box.hidden = false;
  window.terragrid.errors = problems;
  if (panel) panel.markProblems(problems);
}

async function refresh() {
  const [info, config] = await Promise.all([api.info(), api.config()]);
  state.info = info;
  state.config = config;
  $('hash').textContent = info.hash;
  $('seed').value = showValue(config.seed);
  $('export').disabled = !info.export.available;
  $('export').title = info.export.available
    ? `write the current config's files into ${info.export.directory}`
    : 'start terragrid serve with --out-dir DIR to export';
  panel.show(config);
  mapView.show(info);
  if (state.view3d && !$('map3d').hidden) state.view3d.show(info);
  showStatus(info);
}

/// Sends `config` (an object or JSON text); on success it becomes the current one.
async function apply(config) {
  const before = JSON.stringify(state.config);
  try {
    await api.putConfig(config);
  } catch (e) {
    showErrors(e);
    return false;
  }
  showErrors(null);
  if (JSON.stringify(config) !== before && typeof config !== 'string') state.undo.push(before);
  $('undo').disabled = state.undo.length === 0;
  await refresh();
  return true;
}

async function change(path, value) {
  const config = clone(state.config);
  setIn(config, path, value);
  await apply(config);
}

function showStatus(info) {
  const h = $('hydrology-status');
  if (info.hydrology.enabled && info.hydrology.state !== 'done') {
    h.hidden = false;
    const percent = Math.round(100 * info.hydrology.progress);
    h.innerHTML = info.hydrology.state === 'failed'
      ? `Hydrology failed: ${escapeHtml(info.hydrology.error || '')}`
      : `Hydrology: ${escapeHtml(info.hydrology.phase)} ${percent} %<progress max="100" value="${percent}"></progress>`;
  } else {
    h.hidden = true;
  }
}

async function poll() {
  try {
    const info = await api.info();
    const wasDone = state.info && state.info.hydrology.state === 'done';
    if (info.hash === state.info.hash) {
      showStatus(info);
      if (!wasDone && info.hydrology.state === 'done') {
        state.info = info;
        mapView.show(info);  // water, and tiles drawn before it, now final
      }
    }
  } catch (e) {
    // The server may be restarting; try again at the next tick.
  }
  const busy = state.info && state.info.hydrology.enabled && state.info.hydrology.state === 'running';
  setTimeout(poll, busy ? 500 : 2000);
}

async function pollExport() {
  const box = $('export-status');
  box.hidden = false;
  const s = await api.exportStatus();
  if (s.state === 'running') {
    const done = s.tiles_total ? `${s.tiles_done} / ${s.tiles_total} tiles` : 'starting';
    box.textContent = `Exporting into ${s.directory}: ${done}`;
    setTimeout(pollExport, 300);
  } else if (s.state === 'done') {
    box.textContent = `Exported ${s.files.length} files into ${s.directory} in ${s.seconds.toFixed(1)} s: ${s.files.join(', ')}`;
  } else if (s.state === 'failed') {
    box.textContent = `Export failed: ${s.error}`;
  }
}

let panel = null;

async function main() {
  const schema = await api.schema();
  panel = new ConfigPanel($('config-form'), schema, change);
  await refresh();

  $('seed').addEventListener('change', () => {
    const text = $('seed').value.trim();
    change(['seed'], /^\d+$/.test(text) ? wholeNumber(text) : text);
  });
  $('another-seed').addEventListener('click', () => {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    change(['seed'], seed);
  });
  $('undo').addEventListener('click', async () => {
    const previous = state.undo.pop();
    $('undo').disabled = state.undo.length === 0;
    if (previous) await apply(previous);
  });
  $('download').addEventListener('click', () => {
    const blob = new Blob([JSON.stringify(state.config, null, 2) + '\n'], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `terragrid-${state.info.hash}.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $('export').addEventListener('click', async () => {
    try {
      await api.startExport();
    } catch (e) {
      $('export-status').hidden = false;
      $('export-status').textContent = e.message;
      return;
    }
    pollExport();
  });
  $('view3d').addEventListener('click', async () => {
    const on = $('map3d').hidden;
    $('map3d').hidden = !on;
    $('view3d').textContent = on ? '2D view' : '3D view';
    if (on) {
      if (!state.view3d) {
        state.view3d = new TerrainView($('map3d'));
        window.terragrid.view3d = state.view3d;
      }
      await state.view3d.show(state.info);
    } else if (state.view3d) {
      state.view3d.hide();
    }
  });
  window.terragrid.ready = true;
  poll();
}

main().catch((e) => {
  showErrors(e);
  window.terragrid.failed = String(e);
});
