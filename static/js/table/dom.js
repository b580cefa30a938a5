/*
 * dom.js: the few DOM helpers every region uses.
 *
 * Owns: finding an element ($), building one with attributes and children (el), and
 * redrawing a region only when what it shows has changed (once), so a frame that
 * does not touch a region leaves it as it is: focus, a half-typed amount and all.
 */

export function $(selector) {
  return document.querySelector(selector);
}

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value);
  }
  for (const child of children || []) if (child) node.appendChild(child);
  return node;
}

const drawn = new Map();

/** Run draw() only when key differs from the key it last drew for this region. */
export function once(region, key, draw) {
  const text = JSON.stringify(key);
  if (drawn.get(region) === text) return;
  drawn.set(region, text);
  draw();
}
