// The config panel, generated from the config's JSON Schema (GET /api/schema): a group per
// section, numbers as inputs (and sliders where the range is short), enums as menus, booleans
// as boxes, the rest as JSON, each with its description as help. A change is sent at once
// (sliders after a pause); the server validates it as `terragrid validate` does and the
// panel shows its message, naming the key, when it refuses.
import { showValue } from './api.js';
import { escapeHtml } from './map_view.js';

// Sections shown open; the others start folded.
const OPEN = new Set(['map', 'height', 'terrain', 'hydrology']);
// Keys the explorer does not use (where and how files are written: the export takes them).
const SLIDER_SPAN = 100;

function at(object, path) {
  return path.reduce((o, k) => (o == null ? undefined : o[k]), object);
}

export class ConfigPanel {
  /// `onChange(path, value)` is called with a key's path (an array) and its new value.
  constructor(form, schema, onChange) {
    this.form = form;
    this.schema = schema;
    this.onChange = onChange;
    this.fields = new Map();  // dotted key -> {element, input, slider, kind}
    this.build();
  }

  build() {
    this.form.innerHTML = '';
    for (const [key, node] of Object.entries(this.schema.properties)) {
      if (key === '$schema' || key === 'seed') continue;
      if (node.type === 'object' && node.properties) {
        const details = document.createElement('details');
        details.open = OPEN.has(key);
        details.innerHTML = `<summary>${key}</summary>`;
        this.addObject(details, [key], node);
        this.form.appendChild(details);
      } else {
        this.addField(this.form, [key], node);
      }
    }
  }

  addObject(parent, path, node) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (child.type === 'object' && child.properties) this.addObject(parent, path.concat(key), child);
      else this.addField(parent, path.concat(key), child);
    }
  }

  addField(parent, path, node) {
    const key = path.join('.');
    const div = document.createElement('div');
    div.className = 'field';
    div.dataset.key = key;
    const id = `field-${key.replace(/\./g, '-')}`;
    let input, slider = null, kind;
    if (node.enum) {
      kind = 'enum';
      input = document.createElement('select');
      for (const v of node.enum) input.add(new Option(v, v));
    } else if (node.type === 'boolean') {
      kind = 'boolean';
      input = document.createElement('input');
      input.type = 'checkbox';
    } else if (node.type === 'integer' || node.type === 'number') {
      kind = node.type;
      input = document.createElement('input');
      input.type = 'number';
      input.step = node.type === 'integer' ? '1' : 'any';
      const lo = node.minimum ?? node.exclusiveMinimum, hi = node.maximum ?? node.exclusiveMaximum;
      if (typeof lo === 'number' && typeof hi === 'number' && hi - lo <= SLIDER_SPAN && hi > lo) {
        slider = document.createElement('input');
        slider.type = 'range';
        slider.min = lo;
        slider.max = hi;
        slider.step = node.type === 'integer' ? 1 : (hi - lo) / 1000;
      }
    } else if (node.type === 'string') {
      kind = 'string';
      input = document.createElement('input');
      input.type = 'text';
    } else {
      kind = 'json';  // arrays, and values of more than one shape (oneOf)
      input = document.createElement('input');
      input.type = 'text';
      input.spellcheck = false;
    }
    input.id = id;
    input.name = key;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = key;
    label.title = node.description || '';
    div.appendChild(label);
    if (slider) div.appendChild(slider);
    div.appendChild(input);
    if (node.description) {
      const help = document.createElement('div');
      help.className = 'help';
      help.textContent = node.description.length > 160 ? node.description.slice(0, 157) + '…' : node.description;
      help.title = node.description;
      div.appendChild(help);
    }
    parent.appendChild(div);
    this.fields.set(key, { div, input, slider, kind, path });

    const send = () => {
      const value = this.read(key);
      if (value === undefined) return;
      this.onChange(path, value);
    };
    input.addEventListener('change', send);
    if (slider) {
      let timer = null;
      slider.addEventListener('input', () => {
        input.value = slider.value;
        clearTimeout(timer);
        timer = setTimeout(send, 200);
      });
    }
  }

  /// The value of a field as JSON would hold it; undefined (and the field marked) when it
  /// is not valid JSON.
  read(key) {
    const f = this.fields.get(key);
    f.div.classList.remove('invalid');
    switch (f.kind) {
      case 'boolean': return f.input.checked;
      case 'enum':
      case 'string': return f.input.value;
      case 'integer':
      case 'number': {
        const text = f.input.value.trim();
        // What the user typed goes to the server as it is, so its message names the value.
        return text === '' ? null : Number(text);
      }
      default:
        try {
          return JSON.parse(f.input.value);
        } catch (e) {
          f.div.classList.add('invalid');
          return undefined;
        }
    }
  }

  /// Shows `config`'s values.
  show(config) {
    for (const [, f] of this.fields) {
      const value = at(config, f.path);
      f.div.classList.remove('invalid');
      if (value === undefined) continue;
      if (f.kind === 'boolean') f.input.checked = Boolean(value);
      else if (f.kind === 'json') f.input.value = JSON.stringify(value);
      else f.input.value = showValue(value);
      if (f.slider) f.slider.value = Number(value);
    }
  }

  /// Marks the fields the server's problems name.
  markProblems(problems) {
    for (const [key, f] of this.fields) {
      if (problems.some((p) => p.includes(`'${key}'`))) f.div.classList.add('invalid');
    }
  }
}

export function setIn(object, path, value) {
  let o = object;
  for (const k of path.slice(0, -1)) {
    if (o[k] == null || typeof o[k] !== 'object') o[k] = {};
    o = o[k];
  }
  o[path[path.length - 1]] = value;
}

export { escapeHtml };
