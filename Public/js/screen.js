// Renders one screen's content (texts, images, fields, toggles, buttons, lists) into a page element.
import { icon } from './icons.js';

const slug = (s) => String(s ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
let uid = 0;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role' || k === 'for' || k === 'tabindex') node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c) node.append(c);
  return node;
}
export { el, slug };

/**
 * Builds the page element for a page of the layout.
 * @param page       a page from buildView
 * @param onAction   (action, pageEl, toggle?) => void — performs a control's action
 */
export function renderPage(page, onAction) {
  const screen = page.screen;
  const pageEl = el('div', {
    class: 'page', 'data-page': page.key, 'data-route': page.route, 'data-testid': `page-${page.route}`,
  });
  if (screen?.background) pageEl.style.setProperty('--screen-bg', screen.background);
  if (page.tint) pageEl.style.setProperty('--tint', page.tint);
  const body = el('div', { class: 'page-body' });
  pageEl.append(body);
  if (!screen) {
    body.append(el('p', { class: 't-caption empty', text: `${page.route} has no screen to show.` }));
    return pageEl;
  }
  const ctx = { pageEl, onAction, key: page.key };
  for (const item of screen.content || []) {
    const node = renderItem(item, ctx);
    if (node) body.append(node);
  }
  return pageEl;
}

function renderItem(item, ctx) {
  switch (item.type) {
    case 'text':
      return el('p', { class: `t-${item.style || 'body'}`, text: item.text });
    case 'image': {
      const wrap = el('div', { class: 'hero-image', 'data-testid': `image-${item.systemName}` },
        icon(item.systemName, { size: 72, label: item.systemName }));
      if (item.color) wrap.style.color = item.color;
      return wrap;
    }
    case 'textField': return renderField(item, ctx);
    case 'toggle': return renderToggle(item, ctx);
    case 'button': return renderButton(item, ctx);
    case 'list': return renderList(item, ctx);
    default:
      return el('p', { class: 't-caption unknown-item', text: `Unsupported content: ${item.type}` });
  }
}

function renderField(item, ctx) {
  const id = `f${++uid}-${slug(item.id)}`;
  const input = el('input', {
    id, type: item.secure ? 'password' : 'text', value: item.value ?? '', placeholder: item.placeholder || '',
    autocomplete: 'off', spellcheck: false, 'data-field': item.id, 'data-testid': `field-${item.id}`,
    'data-server-value': item.value ?? '',
  });
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    // Enter submits the first enabled button whose event reads this field.
    const target = [...ctx.pageEl.querySelectorAll('button[data-fields]')]
      .find((b) => !b.disabled && b.dataset.fields.split(' ').includes(item.id));
    if (target) { e.preventDefault(); target.click(); }
  });
  return el('div', { class: 'field' }, el('label', { for: id, text: item.label || item.id }), input);
}

function renderToggle(item, ctx) {
  const id = `t${++uid}-${slug(item.id)}`;
  const input = el('input', {
    id, type: 'checkbox', role: 'switch', 'aria-checked': String(!!item.isOn), checked: !!item.isOn, disabled: !item.action,
    'data-field': item.id, 'data-testid': `toggle-${item.id}`, 'data-server-on': String(!!item.isOn),
  });
  input.addEventListener('change', () => {
    input.setAttribute('aria-checked', String(input.checked));
    if (item.action) ctx.onAction(item.action, ctx.pageEl, { id: item.id, value: String(input.checked) });
  });
  return el('div', { class: 'toggle-row' },
    el('label', { for: id, text: item.title || item.id }), el('span', { class: 'switch' }, input));
}

function renderButton(item, ctx) {
  const fields = item.action?.type === 'event' ? (item.action.fields || []) : [];
  const button = el('button', {
    type: 'button', class: `sbtn sbtn-${item.role || 'secondary'}`, text: item.title,
    disabled: !!item.disabled || !item.action, 'data-testid': `button-${slug(item.title)}`,
    'data-fields': fields.length ? fields.join(' ') : null,
  });
  button.addEventListener('click', () => ctx.onAction(item.action, ctx.pageEl));
  return button;
}

function renderList(item, ctx) {
  const list = el('ul', { class: 'list' });
  for (const row of item.rows || []) {
    const tag = row.action ? 'button' : 'div';
    const content = el(tag, {
      class: 'row', type: row.action ? 'button' : null, 'data-testid': `row-${row.id}`, 'data-row': row.id,
    });
    if (row.icon) content.append(el('span', { class: 'row-icon' }, icon(row.icon, { size: 22 })));
    content.append(el('span', { class: 'row-text' },
      el('span', { class: 'row-title', text: row.title }),
      row.subtitle ? el('span', { class: 'row-subtitle', text: row.subtitle }) : null));
    if (row.badge) content.append(el('span', { class: 'badge', text: row.badge, 'aria-label': `${row.badge} new` }));
    if (row.action) {
      content.append(el('span', { class: 'row-chevron' }, icon('chevron.right', { size: 14 })));
      content.addEventListener('click', () => ctx.onAction(row.action, ctx.pageEl));
    }
    list.append(el('li', {}, content));
  }
  return list;
}

/** Copies what the user typed into `to` when the server's value for that field did not change. */
export function carryInput(from, to) {
  for (const input of from.querySelectorAll('input[data-field]:not([type=checkbox])')) {
    const next = to.querySelector(`input[data-field="${CSS.escape(input.dataset.field)}"]:not([type=checkbox])`);
    if (next && next.dataset.serverValue === input.dataset.serverValue) next.value = input.value;
  }
}
