// The 3D view: MapLibre GL drapes the preview tiles over the terrarium tiles (raster-dem).
// MapLibre works in Web Mercator, so the map's own pyramid is placed in it: zoom z of the map
// is Mercator zoom z + K, the map's north-west corner at longitude 0, latitude 0, and K is
// chosen so that a Mercator pixel there is about one cell's ground size. The map then spans a
// fraction of a degree (for the default map), where Mercator's scale is flat to a part in
// 10^5, and heights stand at their true proportion (the exaggeration corrects the rest of the
// rounding of K), then exaggerated 3 times, so the relief of a map some kilometres across shows.
const EQUATOR_METERS = 40075016.686;

let loading = null;
function loadMapLibre() {
  if (window.maplibregl) return Promise.resolve();
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = '/vendor/maplibre-gl/maplibre-gl.css';
      document.head.appendChild(css);
      const script = document.createElement('script');
      script.src = '/vendor/maplibre-gl/maplibre-gl.js';
      script.onload = resolve;
      script.onerror = () => reject(new Error('could not load MapLibre GL'));
      document.head.appendChild(script);
    });
  }
  return loading;
}

/// Where the map's pyramid lies in Web Mercator.
export function mercatorPlacement(info) {
  const max = info.zoom.max;
  const ideal = Math.round(Math.log2(EQUATOR_METERS / (256 * info.map.cell_meters)));
  const k = Math.min(Math.max(ideal - max, 1), 22 - max);
  const top = max + k;
  const pixelMeters = EQUATOR_METERS / (256 * 2 ** top);
  const world = 256 * 2 ** top;
  const lon = (px) => (px / world) * 360;
  const lat = (py) => {
    const y = 0.5 + py / world;
    return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
  };
  return {
    k, top,
    exaggeration: pixelMeters / info.map.cell_meters,
    bounds: [0, lat(info.map.height), lon(info.map.width), 0],
    centre: [lon(info.map.width / 2), lat(info.map.height / 2)],
  };
}

export class TerrainView {
  constructor(element) {
    this.element = element;
    this.map = null;
    this.errors = [];
    this.ready = false;
  }

  async show(info, exaggeration = 3) {
    await loadMapLibre();
    const place = mercatorPlacement(info);
    const origin = window.location.origin;
    const source = (layer) => ({
      tiles: [`${origin}/merc/${layer}/{z}/{x}/{y}`],
      tileSize: 256,
      minzoom: place.k,
      maxzoom: place.top,
      bounds: place.bounds,
    });
    // Mercator tile (z, x, y) is the map's tile (z - K, x - 2^(z-1), y - 2^(z-1)).
    const transformRequest = (url) => {
      const m = /\/merc\/(\w+)\/(\d+)\/(\d+)\/(\d+)$/.exec(url);
      if (!m) return { url };
      const z = Number(m[2]), half = 2 ** (z - 1);
      const ours = `${z - place.k}/${Number(m[3]) - half}/${Number(m[4]) - half}`;
      return { url: `${origin}/tiles/${m[1]}/${ours}.png?config=${info.hash}` };
    };
    if (this.map) this.map.remove();
    this.errors = [];
    this.ready = false;
    this.map = new maplibregl.Map({
      container: this.element,
      style: {
        version: 8,
        sources: {
          preview: { type: 'raster', ...source('preview') },
          dem: { type: 'raster-dem', encoding: 'terrarium', ...source('terrarium') },
        },
        layers: [
          { id: 'background', type: 'background', paint: { 'background-color': '#20232a' } },
          { id: 'preview', type: 'raster', source: 'preview' },
        ],
        terrain: { source: 'dem', exaggeration: place.exaggeration * exaggeration },
      },
      center: place.centre,
      zoom: place.top - 2,
      pitch: 60,
      bearing: -20,
      maxPitch: 80,
      transformRequest,
      canvasContextAttributes: { preserveDrawingBuffer: true },
      attributionControl: false,
    });
    this.map.addControl(new maplibregl.NavigationControl({ visualizePitch: true }));
    this.map.on('error', (e) => this.errors.push(String(e.error ? e.error.message : e)));
    this.map.getCanvas().addEventListener('webglcontextlost', () => this.errors.push('WebGL context lost'));
    this.map.once('load', () => this.map.fitBounds(place.bounds, { pitch: 60, bearing: -20, padding: 40, duration: 0 }));
    this.map.on('idle', () => { this.ready = true; });
  }

  hide() {
    if (this.map) this.map.remove();
    this.map = null;
    this.ready = false;
  }
}
