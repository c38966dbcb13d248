// The 2D map: Leaflet in the map's own grid (CRS.Simple), one pixel per cell at the highest
// zoom, tiles addressed by the config's hash; a layer switcher, the legend and the cell
// inspector on click.
import { api } from './api.js';

const BASE_LAYERS = { preview: 'Preview (classes, shaded)', height: 'Height (shaded)', classes: 'Classes' };
const OVERLAYS = { walkable: 'Blocked cells', water: 'Water (hydrology)' };

export class MapView {
  constructor(element, legend) {
    this.element = element;
    this.legendElement = legend;
    this.map = null;
    this.layers = {};
    this.base = 'preview';
    this.info = null;
    this.loads = 0;         // layers fully loaded since the last change of config
  }

  /// Shows `info` (GET /api/info): a new map when the size changed, else new tile URLs.
  show(info) {
    const resized = !this.info || this.info.map.width !== info.map.width ||
                    this.info.map.height !== info.map.height;
    const wasWet = this.info && this.info.hydrology.state === 'done';
    this.info = info;
    if (resized) this.create();
    else this.retarget(wasWet !== (info.hydrology.state === 'done'));
    this.showLegend();
  }

  /// The cell of a point of the map, or null outside.
  cellAt(latlng) {
    const p = this.map.project(latlng, this.info.zoom.max);
    const x = Math.floor(p.x), y = Math.floor(p.y);
    if (x < 0 || y < 0 || x >= this.info.map.width || y >= this.info.map.height) return null;
    return { x, y };
  }

  /// The point of the map at the centre of cell (x, y).
  latLngOf(x, y) {
    return this.map.unproject([x + 0.5, y + 0.5], this.info.zoom.max);
  }

  tileUrl(layer) {
    const info = this.info;
    // Tiles drawn before the hydrology stage finished come back final once it has: the
    // stage's state in the URL makes them new URLs.
    const water = info.hydrology.enabled ? `&water=${info.hydrology.state === 'done' ? 1 : 0}` : '';
    return `/tiles/${layer}/{z}/{x}/{y}.png?config=${info.hash}${water}`;
  }

  create() {
    if (this.map) this.map.remove();
    const info = this.info;
    const max = info.zoom.max;
    this.map = L.map(this.element, {
      crs: L.CRS.Simple,
      minZoom: 0,
      maxZoom: max + 4,
      zoomSnap: 1,
      // Tiles appear at full opacity: a fading tile would show other colours than its cells'.
      fadeAnimation: false,
      attributionControl: false,
    });
    const bounds = L.latLngBounds(this.map.unproject([0, info.map.height], max),
                                  this.map.unproject([info.map.width, 0], max));
    this.bounds = bounds;
    this.layers = {};
    const base = {}, overlays = {};
    for (const name of Object.keys(BASE_LAYERS).concat(Object.keys(OVERLAYS))) {
      const layer = L.tileLayer(this.tileUrl(name), {
        tileSize: 256, minZoom: 0, maxZoom: max + 4, maxNativeZoom: max, noWrap: true,
        bounds, keepBuffer: 1, className: `layer-${name}`,
      });
      layer.on('load', () => { this.loads += 1; });
      this.layers[name] = layer;
      if (name in BASE_LAYERS) base[BASE_LAYERS[name]] = layer;
      else overlays[OVERLAYS[name]] = layer;
    }
    this.layers[this.base].addTo(this.map);
    L.control.layers(base, overlays, { collapsed: false }).addTo(this.map);
    this.map.on('baselayerchange', (e) => {
      this.base = Object.keys(this.layers).find((k) => this.layers[k] === e.layer);
      this.showLegend();
    });
    this.map.on('overlayadd overlayremove', () => this.showLegend());
    this.map.on('click', (e) => this.inspect(e.latlng));
    // The whole map in view, at a whole zoom (fractional zooms would resample the pixels).
    this.map.fitBounds(bounds, { maxZoom: max });
    this.map.setZoom(Math.floor(this.map.getZoom()));
    this.map.setMaxBounds(bounds.pad(0.5));
  }

  /// Whether a layer on the map is still loading tiles.
  loading() {
    return Object.values(this.layers).some((l) => this.map.hasLayer(l) && l.isLoading());
  }

  retarget(refreshWater) {
    this.loads = 0;
    for (const [name, layer] of Object.entries(this.layers)) layer.setUrl(this.tileUrl(name));
    if (refreshWater && this.map.hasLayer(this.layers.water)) this.layers.water.redraw();
  }

  async inspect(latlng) {
    const cell = this.cellAt(latlng);
    if (!cell) return;
    const popup = L.popup({ className: 'cell-popup' }).setLatLng(this.latLngOf(cell.x, cell.y))
      .setContent('…').openOn(this.map);
    try {
      const c = await api.cell(cell.x, cell.y);
      const rows = [
        ['cell', `${c.x}, ${c.y}`],
        ['height', `${c.height_m.toFixed(2)} m`],
        ['moisture', c.moisture.toFixed(3)],
        ['walkable', c.walkable ? 'yes' : 'no'],
      ];
      if (c.water) {
        rows.push(['water', c.water.kind]);
        if (c.water.kind === 'lake') rows.push(['depth', `${c.water.depth_m.toFixed(2)} m`]);
        if (c.water.kind === 'river') rows.push(['Strahler order', String(c.water.strahler)]);
        rows.push(['flow', `${c.water.flow.toFixed(0)} cells`]);
      } else if (c.hydrology.enabled) {
        rows.push(['water', `hydrology ${c.hydrology.state}`]);
      }
      popup.setContent(
        `<div class="class" data-class="${c.class.name}">` +
        `<span class="swatch" style="display:inline-block;width:12px;height:12px;background:${c.class.colour}"></span> ` +
        `${escapeHtml(c.class.name)}</div><table>` +
        rows.map(([k, v]) => `<tr><td>${k}</td><td>${escapeHtml(v)}</td></tr>`).join('') + '</table>');
      window.terragrid.lastCell = c;
    } catch (e) {
      popup.setContent(escapeHtml(e.message));
    }
  }

  showLegend() {
    const info = this.info;
    const entries = [];
    if (this.base === 'height') {
      for (const e of info.legend.height) entries.push([e.colour, e.label]);
    } else {
      for (const c of info.classes) entries.push([c.colour, c.name]);
    }
    if (this.map && this.map.hasLayer(this.layers.walkable)) entries.push(['#c81e1e', 'blocked']);
    this.legendElement.innerHTML = entries.map(([colour, label]) =>
      `<div class="entry"><span class="swatch" style="background:${colour}"></span>${escapeHtml(label)}</div>`).join('');
  }
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
