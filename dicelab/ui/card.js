// Yahtzee score card: columns per player; the player on turn's open boxes are buttons.
function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

export function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "card-root";
  el.append(root);
  root.addEventListener("click", (e) => {
    const b = e.target.closest("button.box");
    if (b && !b.disabled) model.send_msg({box: b.dataset.box, seen: (model.card || {}).mark || ""});
  });

  function draw() {
    const c = model.card || {};
    const cols = c.cols || [];
    const opts = c.options || {};
    if (!cols.length) { root.innerHTML = ""; return; }  // an empty (preloaded) card
    const w = c.words || {};
    const fill = (t, box, pts) => String(t || "").replace("{box}", box).replace("{points}", pts);
    let h = `<table class="card" aria-label="${esc(w.card || "")}" data-tick="${c.tick}"><thead><tr><th scope="col">${esc(w.box || "")}</th>`;
    for (const col of cols) h += `<th scope="col" class="${col.turn ? "turn" : ""}">${col.turn ? "▶ " : ""}${esc(col.name)}</th>`;
    h += `</tr></thead><tbody>`;
    (c.rows || []).forEach((r, ri) => {
      if (ri === 6) {
        h += `<tr class="sub"><th scope="row">${esc(w.upper_bonus || "")}</th>`;
        for (const col of cols) h += `<td class="${col.turn ? "turn" : ""}">${col.upper_bonus ? col.upper_bonus : `${col.upper}/${c.threshold}`}</td>`;
        h += `</tr>`;
      }
      h += `<tr><th scope="row">${esc(r.label)}</th>`;
      for (const col of cols) {
        const v = col.cells[ri];
        if (v !== null && v !== undefined) {
          h += `<td class="filled ${col.turn ? "turn" : ""}">${v}</td>`;
        } else if (col.turn && r.box in opts) {
          const pts = opts[r.box];
          const zero = pts === 0 ? " zero" : "";
          if (c.clickable) {
            h += `<td class="turn"><button type="button" class="box${zero}" data-box="${r.box}" aria-label="${esc(fill(w.score, r.label, pts))}">${pts}</button></td>`;
          } else {
            h += `<td class="turn open${zero}">${pts}</td>`;
          }
        } else {
          h += `<td class="open ${col.turn ? "turn" : ""}"><span class="dash">·</span></td>`;
        }
      }
      h += `</tr>`;
    });
    h += `<tr class="sub"><th scope="row">${esc(w.yahtzee_bonus || "")}</th>`;
    for (const col of cols) h += `<td class="${col.turn ? "turn" : ""}">${col.yb || 0}</td>`;
    h += `</tr><tr class="total"><th scope="row">${esc(w.total || "")}</th>`;
    for (const col of cols) h += `<td class="${col.turn ? "turn" : ""}">${col.total}</td>`;
    h += `</tr></tbody></table>`;
    root.innerHTML = h;
  }
  model.on("card", draw);
  draw();
}
