// Inline SVG stand-ins for common SF Symbols (the names are listed in docs/state-document.md, "Icons"). A name the
// page cannot draw is shown as itself, in a small label: readable, never an empty box.
const STROKE = 'fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"';
const STAR = 'M12 3.2l2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 17l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8z';

const PATHS = {
  'circle.fill': '<circle cx="12" cy="12" r="8.5" fill="currentColor"/>',
  'circle': `<circle cx="12" cy="12" r="8.5" ${STROKE}/>`,
  'square.fill': '<rect x="4" y="4" width="16" height="16" rx="3.5" fill="currentColor"/>',
  'square': `<rect x="4" y="4" width="16" height="16" rx="3.5" ${STROKE}/>`,
  'house': `<path d="M3.5 11L12 4l8.5 7M6 9.2V20h4.5v-5.5h3V20H18V9.2" ${STROKE}/>`,
  'house.fill': '<path d="M12 3.6l9 7.4-1.1 1.3L18.5 11v9.5h-5v-6h-3v6h-5V11l-1.4 1.3L3 11z" fill="currentColor"/>',
  'list.bullet': `<g ${STROKE}><path d="M9 6.5h11M9 12h11M9 17.5h11"/></g><g fill="currentColor"><circle cx="4.6" cy="6.5" r="1.4"/><circle cx="4.6" cy="12" r="1.4"/><circle cx="4.6" cy="17.5" r="1.4"/></g>`,
  'gear': `<g ${STROKE}><circle cx="12" cy="12" r="3.2"/><path d="M12 2.8v2.6M12 18.6v2.6M21.2 12h-2.6M5.4 12H2.8M18.5 5.5l-1.8 1.8M7.3 16.7l-1.8 1.8M18.5 18.5l-1.8-1.8M7.3 7.3L5.5 5.5"/><circle cx="12" cy="12" r="6.4"/></g>`,
  'person': `<g ${STROKE}><circle cx="12" cy="8" r="3.8"/><path d="M4.5 20.5c.8-4 3.8-6 7.5-6s6.7 2 7.5 6"/></g>`,
  'person.circle': `<g ${STROKE}><circle cx="12" cy="12" r="9"/><circle cx="12" cy="10" r="3"/><path d="M6.2 18.4c1.2-2.3 3.3-3.5 5.8-3.5s4.6 1.2 5.8 3.5"/></g>`,
  'sparkles': '<path d="M10 3.5c.6 4.1 2.4 5.9 6.5 6.5-4.1.6-5.9 2.4-6.5 6.5-.6-4.1-2.4-5.9-6.5-6.5 4.1-.6 5.9-2.4 6.5-6.5z'
    + 'M18 13.5c.3 2 1.1 2.8 3 3-1.9.3-2.7 1.1-3 3-.3-1.9-1.1-2.7-3-3 1.9-.2 2.7-1 3-3z'
    + 'M17.5 2.5c.2 1.2.7 1.7 1.9 1.9-1.2.2-1.7.7-1.9 1.9-.2-1.2-.7-1.7-1.9-1.9 1.2-.2 1.7-.7 1.9-1.9z" fill="currentColor"/>',
  'person.fill': '<circle cx="12" cy="8" r="4" fill="currentColor"/><path d="M4.2 21c.7-4.5 3.9-6.8 7.8-6.8s7.1 2.3 7.8 6.8z" fill="currentColor"/>',
  'star': `<path d="${STAR}" ${STROKE}/>`,
  'star.fill': `<path d="${STAR}" fill="currentColor" stroke="currentColor" stroke-width="1.2" stroke-linejoin="round"/>`,
  'plus': `<path d="M12 5v14M5 12h14" ${STROKE} stroke-width="2.2"/>`,
  'checkmark': `<path d="M5 12.5l4.5 4.5L19 7.5" ${STROKE} stroke-width="2.2"/>`,
  'xmark': `<path d="M6.5 6.5l11 11M17.5 6.5l-11 11" ${STROKE} stroke-width="2.2"/>`,
  'chevron.left': `<path d="M15 4.5L7.5 12l7.5 7.5" ${STROKE} stroke-width="2.4"/>`,
  'chevron.right': `<path d="M9 4.5l7.5 7.5L9 19.5" ${STROKE} stroke-width="2.4"/>`,
  'arrow.left': `<path d="M19 12H5M11 6l-6 6 6 6" ${STROKE} stroke-width="2"/>`,
  'arrow.right': `<path d="M5 12h14M13 6l6 6-6 6" ${STROKE} stroke-width="2"/>`,
  'tray': `<path d="M3.5 13.5L6 5h12l2.5 8.5V19h-17zM3.5 13.5H9a3 3 0 006 0h5.5" ${STROKE}/>`,
  'envelope': `<g ${STROKE}><rect x="3" y="5.5" width="18" height="13" rx="2"/><path d="M3.5 6.5L12 13l8.5-6.5"/></g>`,
  'bell': `<path d="M6 16.5V11a6 6 0 0112 0v5.5l1.5 1.5h-15zM10 20.5a2 2 0 004 0" ${STROKE}/>`,
  'magnifyingglass': `<g ${STROKE} stroke-width="2"><circle cx="10.5" cy="10.5" r="6"/><path d="M15 15l5 5"/></g>`,
  'heart': `<path d="M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0112 7.4 4.3 4.3 0 0119.5 10c0 5.4-7.5 10-7.5 10z" ${STROKE}/>`,
  'heart.fill': '<path d="M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0112 7.4 4.3 4.3 0 0119.5 10c0 5.4-7.5 10-7.5 10z" fill="currentColor"/>',
  'trash': `<path d="M4.5 6.5h15M9.5 6.5V4h5v2.5M6.5 6.5l1 13.5h9l1-13.5M10 10v6.5M14 10v6.5" ${STROKE}/>`,
  'pencil': `<path d="M4 20l1-4.5L15.5 5a2.1 2.1 0 013 3L8 18.5zM13.5 7l3 3" ${STROKE}/>`,
  'calendar': `<g ${STROKE}><rect x="3.5" y="5" width="17" height="15" rx="2"/><path d="M3.5 10h17M8 3v4M16 3v4"/></g>`,
  'clock': `<g ${STROKE}><circle cx="12" cy="12" r="8.5"/><path d="M12 7v5l3.5 2"/></g>`,
  'folder': `<path d="M3 7.5A1.5 1.5 0 014.5 6H9l2 2h8.5A1.5 1.5 0 0121 9.5V18a1.5 1.5 0 01-1.5 1.5h-15A1.5 1.5 0 013 18z" ${STROKE}/>`,
  'doc': `<path d="M6 3.5h8l4 4V20.5H6zM14 3.5V8h4" ${STROKE}/>`,
  'photo': `<g ${STROKE}><rect x="3" y="5" width="18" height="14" rx="2"/><circle cx="9" cy="10" r="1.8"/><path d="M3.5 17l5-4.5 4 3.5 3-2.5 5 4"/></g>`,
  'cart': `<g ${STROKE}><path d="M2.5 4h2.5l2.2 10.5h10.3L20 7.5H6"/><circle cx="9" cy="19" r="1.4"/><circle cx="17" cy="19" r="1.4"/></g>`,
  'bookmark': `<path d="M6.5 3.5h11v17L12 16.5l-5.5 4z" ${STROKE}/>`,
  'lock': `<g ${STROKE}><rect x="5" y="10.5" width="14" height="10" rx="2"/><path d="M8 10.5V7.5a4 4 0 018 0v3"/></g>`,
  'lock.open': `<g ${STROKE}><rect x="5" y="10.5" width="14" height="10" rx="2"/><path d="M8 10.5V7.5a4 4 0 017.6-1.8"/></g>`,
  'globe': `<g ${STROKE}><circle cx="12" cy="12" r="8.5"/><path d="M3.5 12h17M12 3.5c2.5 2.5 3.5 5.3 3.5 8.5s-1 6-3.5 8.5c-2.5-2.5-3.5-5.3-3.5-8.5s1-6 3.5-8.5z"/></g>`,
  'info.circle': `<g ${STROKE}><circle cx="12" cy="12" r="8.5"/><path d="M12 11v5.5"/></g><circle cx="12" cy="7.8" r="1.2" fill="currentColor"/>`,
  'exclamationmark.triangle': `<g ${STROKE}><path d="M12 4l9 15.5H3z"/><path d="M12 10v4.5"/></g><circle cx="12" cy="17" r="1.1" fill="currentColor"/>`,
  'ellipsis': '<g fill="currentColor"><circle cx="5.5" cy="12" r="1.7"/><circle cx="12" cy="12" r="1.7"/><circle cx="18.5" cy="12" r="1.7"/></g>',
  'link': `<path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" ${STROKE}/>`,
  'paperplane': `<path d="M20.5 3.5L3.5 10.5l7 3 3 7zM10.5 13.5l10-10" ${STROKE}/>`,
  'person.2': `<g ${STROKE}><circle cx="9" cy="8.5" r="3.3"/><path d="M3 19.5c.6-3.5 3-5.2 6-5.2s5.4 1.7 6 5.2"/><path d="M15.5 5.5a3.2 3.2 0 010 6.2M17.5 14.6c2 .6 3.2 2.2 3.5 4.9"/></g>`,
};

/** The names the page draws. */
export const ICON_NAMES = Object.freeze(Object.keys(PATHS));
/** An <svg> element for an SF-Symbol-like name; decorative unless a label is given. A name the page cannot draw
 * becomes a small label showing the name itself (`data-icon="unknown"`, `data-name` the name). */
export function icon(name, { size = 24, label = null, className = 'icon' } = {}) {
  if (!Object.hasOwn(PATHS, name)) {
    const text = String(name ?? '');
    const fallback = document.createElement('span');
    fallback.className = `${className} icon-fallback`;
    fallback.dataset.icon = 'unknown';
    fallback.dataset.name = text;
    fallback.textContent = text;
    fallback.title = text;
    fallback.style.maxWidth = `${Math.max(size * 2.5, 40)}px`;
    fallback.style.fontSize = `${Math.max(9, Math.min(14, Math.round(size / 2.6)))}px`;
    if (label) {
      fallback.setAttribute('role', 'img');
      fallback.setAttribute('aria-label', label);
    } else {
      fallback.setAttribute('aria-hidden', 'true');
    }
    return fallback;
  }
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('class', className);
  svg.dataset.icon = name;
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  svg.innerHTML = PATHS[name];
  return svg;
}
