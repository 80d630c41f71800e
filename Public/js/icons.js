// Inline SVG stand-ins for the few SF Symbols the demo uses. Unknown names get a neutral glyph.
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
};
const UNKNOWN = `<rect x="4.5" y="4.5" width="15" height="15" rx="4" ${STROKE} stroke-dasharray="2.6 2.4"/><circle cx="12" cy="12" r="1.6" fill="currentColor"/>`;

/** An <svg> element for an SF-Symbol-like name; decorative unless a label is given. */
export function icon(name, { size = 24, label = null, className = 'icon' } = {}) {
  const known = Object.hasOwn(PATHS, name);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('class', className);
  svg.dataset.icon = known ? name : 'unknown';
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  svg.innerHTML = known ? PATHS[name] : UNKNOWN;
  return svg;
}
