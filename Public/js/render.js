// The phone: presentation layers (base, sheets, covers) with a navigation bar, the top page, a tab bar,
// and an alert dialog. Only what changed between two consecutive documents animates.
import { icon } from './icons.js';
import { el, renderPage, carryInput, slug } from './screen.js';
import { pageChange } from './layout.js';

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const DISMISS_DISTANCE = 90;

/** Removes `node` after its CSS animation/transition ends (or at once when nothing animates). */
function removeAfterMotion(node, animated) {
  if (!animated) { node.remove(); return; }
  const done = () => node.remove();
  node.addEventListener('animationend', done, { once: true });
  node.addEventListener('transitionend', done, { once: true });
  setTimeout(done, 700);
}

function retire(node) {
  node.inert = true;
  node.setAttribute('aria-hidden', 'true');
  node.dataset.leaving = 'true';
  node.classList.add('leaving');
}

function animateIn(node, cls) {
  node.classList.add(cls);
  node.addEventListener('animationend', () => node.classList.remove(cls), { once: true });
}

const FILLED = new Set(['house', 'person', 'star', 'circle', 'square']);
const filled = (name) => (FILLED.has(name) ? `${name}.fill` : name);

export class Phone {
  /** handlers: { onAction(action, pageEl, toggle?), onBack(), onDismiss(): Promise, onClose(layer), onSelectTab(node, tab), onAlert(nodeId, index) } */
  constructor(phoneEl, handlers) {
    this.phoneEl = phoneEl;
    this.layersEl = phoneEl.querySelector('#layers');
    this.alertHost = phoneEl.querySelector('#alert-host');
    this.handlers = handlers;
    this.records = new Map();
    this.alertKey = null;
  }

  clear() {
    this.layersEl.replaceChildren();
    this.alertHost.replaceChildren();
    this.records.clear();
    this.alertKey = null;
  }

  render(view, { animate }) {
    const motion = animate && !reducedMotion.matches;
    const focusWasInPhone = this.phoneEl.contains(document.activeElement) || document.activeElement === document.body;
    const focused = this.phoneEl.contains(document.activeElement) ? document.activeElement : null;
    const live = new Set(view.layers.map((l) => l.key));
    const topIndex = view.layers.length - 1;
    let returnTo = null; // the control that opened a sheet or cover that closes now
    let opened = null; // a sheet or cover that opens now

    for (const [key, rec] of this.records) {
      if (live.has(key)) continue;
      this.records.delete(key);
      if (rec.opener?.isConnected) returnTo = rec.opener;
      retire(rec.el);
      rec.leaving = true;
      removeAfterMotion(rec.el, motion && rec.layer.item?.animated !== false);
    }

    view.layers.forEach((layer, i) => {
      let rec = this.records.get(layer.key);
      if (!rec) {
        rec = this.createLayer(layer);
        this.records.set(layer.key, rec);
        this.layersEl.append(rec.el);
        if (motion && layer.item?.animated !== false) animateIn(rec.el, 'enter-rise');
        if (i > 0) { rec.opener = focused; opened = rec; }
      }
      rec.el.style.zIndex = String(i + 1);
      rec.el.style.setProperty('--sheet-offset', String(view.layers.slice(1, i).filter((l) => l.presentation === 'modal').length));
      this.updateLayer(rec, layer, motion);
      rec.el.inert = i < topIndex || !!view.alert;
      // A layer under a sheet, a cover or an alert is neither operable nor announced.
      if (rec.el.inert) rec.el.setAttribute('aria-hidden', 'true');
      else rec.el.removeAttribute('aria-hidden');
      rec.el.classList.toggle('recessed', view.layers.slice(i + 1).some((l) => l.presentation === 'modal'));
    });

    this.renderAlert(view.alert, motion);
    this.announce(view, topIndex);
    if (!animate || !focusWasInPhone || view.alert) return;
    const topTitle = this.records.get(view.layers[topIndex].key)?.el.querySelector('.navbar-title');
    // Keyboard users follow the navigation: into a sheet or cover that opens (its title), back to the control that
    // opened one that closes, and to the top title when the focused control went away.
    if (opened && opened === this.records.get(view.layers[topIndex].key)) {
      topTitle?.focus({ preventScroll: true });
      return;
    }
    if (returnTo && !returnTo.closest('[inert], [data-leaving]')) {
      returnTo.focus({ preventScroll: true });
      return;
    }
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || active.closest('[data-leaving], [inert]');
    if (lost) topTitle?.focus({ preventScroll: true });
  }

  /** Says the top screen's title to screen readers when it changes (a polite live region, not the whole phone). */
  announce(view, topIndex) {
    const announcer = this.phoneEl.querySelector('#announcer');
    const top = this.records.get(view.layers[topIndex]?.key);
    const title = top?.el.querySelector('.navbar-title')?.textContent || '';
    const key = `${top?.layer.key}/${top?.pageKey}`;
    if (!announcer || key === this.announcedKey) return;
    this.announcedKey = key;
    announcer.textContent = view.alert ? '' : title;
  }

  createLayer(layer) {
    const kind = layer.presentation;
    const testid = kind === 'base' ? 'layer-base' : kind === 'modal' ? 'sheet' : 'cover';
    const section = el('section', { class: `layer layer-${kind}`, 'data-layer': layer.key, 'data-testid': testid });
    const rec = { el: section, layer, pageEl: null, pageKey: null, pageKeys: [], screenJson: '', navJson: '', tabJson: '' };
    if (kind !== 'base') {
      section.setAttribute('role', 'dialog');
      section.setAttribute('aria-modal', 'true');
    }
    if (kind === 'modal') {
      const grabber = el('div', { class: 'grabber', 'data-testid': 'sheet-grabber', 'aria-hidden': 'true' }, el('span'));
      this.attachSwipe(grabber, rec);
      section.append(grabber);
    }
    rec.navbar = el('header', { class: 'navbar', 'data-testid': 'navbar' });
    rec.pages = el('div', { class: 'pages' });
    rec.tabbar = el('nav', { class: 'tabbar', 'data-testid': 'tabbar', 'aria-label': 'Tabs', hidden: true });
    section.append(rec.navbar, rec.pages, rec.tabbar);
    return rec;
  }

  /** Updates a layer in place. */
  updateLayer(rec, layer, motion) {
    rec.layer = layer;
    const top = layer.pages.at(-1) || { key: `${layer.key}-empty`, route: layer.item?.route || '', screen: null, owner: layer.owner, entry: {}, tab: null };
    const prev = layer.pages.at(-2) || null;
    this.renderNavbar(rec, layer, top, prev);

    const keys = layer.pages.map((p) => p.key);
    const screenJson = JSON.stringify(top.screen) + (top.tint || '');
    if (rec.pageKey === top.key) {
      if (screenJson !== rec.screenJson) {
        const fresh = renderPage(top, this.handlers.onAction);
        carryInput(rec.pageEl, fresh);
        rec.pageEl.replaceWith(fresh);
        rec.pageEl = fresh;
      } else {
        for (const t of rec.pageEl.querySelectorAll('input[type=checkbox][data-server-on]')) {
          t.checked = t.dataset.serverOn === 'true';
        }
      }
    } else {
      const fresh = renderPage(top, this.handlers.onAction);
      const old = rec.pageEl;
      const how = old ? pageChange(rec.pageKeys, keys) : 'replace';
      const animated = motion && (how === 'push' ? top.entry.animated !== false
        : how === 'pop' ? rec.topEntry?.animated !== false : false);
      rec.pages.append(fresh);
      if (old) {
        retire(old);
        if (animated) {
          animateIn(fresh, how === 'push' ? 'enter-push' : 'enter-pop');
          old.classList.add(how === 'push' ? 'leave-push' : 'leave-pop');
        }
        removeAfterMotion(old, animated);
      }
      rec.pageEl = fresh;
    }
    rec.pageKey = top.key;
    rec.topEntry = top.entry;
    rec.pageKeys = keys;
    rec.screenJson = screenJson;
    this.renderTabbar(rec, top.tab);
  }

  renderNavbar(rec, layer, top, prev) {
    const deco = top.owner?.decoration || {};
    const title = top.screen?.title || deco.title || top.route;
    const dismissible = layer.presentation !== 'base' && layer.item?.dismissible !== false;
    const backTitle = prev ? (prev.screen?.title || prev.route) : '';
    const state = { title, backTitle, hidden: !!deco.navigationBarHidden, dismissible, tint: top.tint, back: !!prev };
    const json = JSON.stringify(state);
    if (json === rec.navJson) return;
    rec.navJson = json;
    const hadFocus = rec.navbar.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const titleId = `title-${layer.key}`;
    rec.navbar.hidden = state.hidden;
    rec.navbar.style.setProperty('--tint', top.tint || '');
    const left = el('div', { class: 'navbar-side' });
    if (prev) {
      const back = el('button', { type: 'button', class: 'nav-back', 'data-testid': 'nav-back', 'aria-label': `Back to ${backTitle}` },
        icon('chevron.left', { size: 20 }), el('span', { class: 'nav-back-label', text: backTitle.length > 12 ? 'Back' : backTitle }));
      back.addEventListener('click', () => this.handlers.onBack());
      left.append(back);
    }
    const right = el('div', { class: 'navbar-side navbar-right' });
    if (dismissible) {
      const close = el('button', { type: 'button', class: 'nav-close', 'data-testid': 'sheet-close', 'aria-label': 'Close' },
        icon('xmark', { size: 16 }));
      // A sheet's close button is the swipe-down gesture; a full-screen cover, which no swipe closes, closes itself.
      close.addEventListener('click', () => (layer.presentation === 'fullScreen'
        ? this.handlers.onClose(layer) : this.handlers.onDismiss()));
      right.append(close);
    }
    const heading = el('h2', { class: 'navbar-title', id: titleId, text: title, tabindex: -1, 'data-testid': 'nav-title' });
    rec.navbar.replaceChildren(left, heading, right);
    if (layer.presentation !== 'base') rec.el.setAttribute('aria-labelledby', titleId);
    if (hadFocus) rec.navbar.querySelector(`[data-testid="${hadFocus}"]`)?.focus();
  }

  renderTabbar(rec, tab) {
    const json = tab ? JSON.stringify([tab.node.id, tab.selected.id, tab.node.tabs, tab.node.decoration]) : '';
    if (json === rec.tabJson) return;
    rec.tabJson = json;
    const deco = tab?.node.decoration || {};
    rec.tabbar.hidden = !tab || deco.tabBarStyle === 'hidden';
    rec.el.classList.toggle('has-tabbar', !rec.tabbar.hidden);
    if (!tab) { rec.tabbar.replaceChildren(); return; }
    rec.tabbar.style.setProperty('--tint', deco.tint || '');
    const hadFocus = rec.tabbar.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const buttons = (tab.node.tabs || []).map((t) => {
      const item = t.tabItem || {};
      const selected = t.id === tab.selected.id;
      const badge = item.badge ?? deco.badges?.[t.route];
      const name = item.icon || 'circle';
      const b = el('button', {
        type: 'button', class: 'tab', 'data-testid': `tab-${t.route}`, 'data-tab': t.id,
        'aria-current': selected ? 'page' : null,
      }, el('span', { class: 'tab-icon' }, icon(selected ? filled(name) : name, { size: 26 })),
      el('span', { class: 'tab-title', text: item.title || t.route }));
      if (badge) b.append(el('span', { class: 'badge tab-badge', text: badge, 'aria-label': `, ${badge} new` }));
      b.addEventListener('click', () => this.handlers.onSelectTab(tab.node, t));
      return b;
    });
    rec.tabbar.replaceChildren(...buttons);
    if (hadFocus) rec.tabbar.querySelector(`[data-testid="${hadFocus}"]`)?.focus();
  }

  renderAlert(entry, motion) {
    const key = entry ? `${entry.node.id}:${JSON.stringify(entry.alert)}` : null;
    if (key === this.alertKey) return;
    this.alertKey = key;
    const old = this.alertHost.firstElementChild;
    if (old) { retire(old); removeAfterMotion(old, false); }
    if (!entry) return;
    const { node, alert } = entry;
    const actions = alert.actions?.length ? alert.actions : [{ title: 'OK', role: 'cancel' }];
    const id = `alert-${node.id}`;
    const buttons = actions.map((a, i) => {
      const b = el('button', {
        type: 'button', class: `alert-action alert-${a.role || 'default'}`, text: a.title,
        'data-testid': `alert-action-${slug(a.title)}`, 'data-choice': String(i),
      });
      b.addEventListener('click', () => this.handlers.onAlert(node.id, i));
      return b;
    });
    const box = el('div', {
      class: 'alert', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': `${id}-t`,
      'aria-describedby': alert.message ? `${id}-m` : null, 'data-testid': 'alert', 'data-coordinator': node.id,
    },
    el('div', { class: 'alert-text' },
      el('h2', { id: `${id}-t`, class: 'alert-title', text: alert.title }),
      alert.message ? el('p', { id: `${id}-m`, class: 'alert-message', text: alert.message }) : null),
    el('div', { class: `alert-actions ${buttons.length === 2 ? 'two' : ''}` }, ...buttons));
    const backdrop = el('div', { class: 'alert-backdrop' }, box);
    if (motion) animateIn(backdrop, 'enter-alert');
    this.alertHost.append(backdrop);
    (buttons.find((b) => !b.classList.contains('alert-cancel')) || buttons[0]).focus({ preventScroll: true });
  }

  /** Drag the grabber down to dismiss; non-dismissible sheets resist (the server still decides). */
  attachSwipe(grabber, rec) {
    grabber.addEventListener('pointerdown', (down) => {
      if (rec.el.inert || down.button !== 0) return;
      down.preventDefault();
      grabber.setPointerCapture?.(down.pointerId);
      const y0 = down.clientY;
      let dy = 0;
      rec.el.classList.add('dragging');
      const move = (e) => {
        dy = Math.max(0, e.clientY - y0);
        const shown = rec.layer.item?.dismissible === false ? 40 * Math.log1p(dy / 40) : dy;
        rec.el.style.transform = `translateY(${shown}px)`;
      };
      const up = (e) => {
        move(e);
        grabber.removeEventListener('pointermove', move);
        grabber.removeEventListener('pointerup', up);
        grabber.removeEventListener('pointercancel', up);
        rec.el.classList.remove('dragging');
        if (dy < DISMISS_DISTANCE || e.type === 'pointercancel') { rec.el.style.transform = ''; return; }
        if (rec.layer.item?.dismissible === false) rec.el.style.transform = '';
        Promise.resolve(this.handlers.onDismiss()).finally(() => { if (!rec.leaving) rec.el.style.transform = ''; });
      };
      grabber.addEventListener('pointermove', move);
      grabber.addEventListener('pointerup', up);
      grabber.addEventListener('pointercancel', up);
    });
  }
}
