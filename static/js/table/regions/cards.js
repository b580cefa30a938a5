/* Drawing a row of cards (face up, some lit; or face down while the hand is live). */

export function drawCards(box, cards, hiddenCount, litCards, live) {
  box.textContent = "";
  const lit = new Set(litCards || []);
  if (cards && cards.length) {
    for (const card of cards) box.appendChild(window.DashainCards.element(card, { lit: lit.has(card) }));
  } else if (hiddenCount && live) {
    for (let i = 0; i < hiddenCount; i++) box.appendChild(window.DashainCards.back());
  }
}

export function flatten(byName) {
  return Object.values(byName || {}).flat();
}
