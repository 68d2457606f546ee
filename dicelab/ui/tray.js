// The dice tray: SVG dice with pips, keep area, roll animation, Web Audio sound, live region.
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[27, 27], [50, 50], [73, 73]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

function svgDie(v) {
  const pips = (PIPS[v] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9.5"/>`).join("");
  return `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">` +
    `<rect class="face" x="4" y="4" width="92" height="92" rx="17"/>` +
    `<g class="pips">${pips}</g></svg>`;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

function dieHtml(d, i, group, animate) {
  const cls = ["die", d.tag || ""];
  if (animate && d.fresh) cls.push(group === "keep" ? "slide" : "tumble");
  if (d.sel) cls.push("sel");
  const mark = d.mark ? `<span class="mark">${esc(d.mark)}</span>` : `<span class="mark"> </span>`;
  const body = `${svgDie(d.v)}${mark}`;
  if (d.click) {
    return `<button type="button" class="${cls.join(" ")}" data-pos="${d.pos}" data-group="${group}"` +
      ` aria-pressed="${d.sel ? "true" : "false"}" aria-label="${esc(d.label)}">${body}</button>`;
  }
  return `<div class="${cls.join(" ")}" role="img" aria-label="${esc(d.label)}">${body}</div>`;
}

let audio = null;
function rattle(n, ms) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const t0 = audio.currentTime + 0.01;
    const hits = 3 + 3 * n;
    for (let k = 0; k < hits; k++) {
      const t = t0 + Math.random() * Math.max(ms, 180) / 1000;
      const len = 0.025;
      const buf = audio.createBuffer(1, Math.floor(audio.sampleRate * len), audio.sampleRate);
      const data = buf.getChannelData(0);
      for (let j = 0; j < data.length; j++) data[j] = (Math.random() * 2 - 1) * Math.pow(1 - j / data.length, 3);
      const src = audio.createBufferSource();
      src.buffer = buf;
      const f = audio.createBiquadFilter();
      f.type = "bandpass"; f.frequency.value = 1800 + Math.random() * 2200; f.Q.value = 3;
      const g = audio.createGain();
      g.gain.value = 0.25 + 0.1 * n / 5;
      src.connect(f); f.connect(g); g.connect(audio.destination);
      src.start(t);
    }
  } catch (e) { /* no audio: silent */ }
}

export function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tray-root";
  const live = document.createElement("div");
  live.className = "sr-only";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  el.append(root, live);
  let lastRoll = null;
  let lastAnnounce = null;

  root.addEventListener("click", (e) => {
    const b = e.target.closest("button.die");
    if (b && !b.disabled) {
      let v = {};
      try { v = JSON.parse(model.view || "{}"); } catch (err) { v = {}; }
      model.send_msg({toggle: Number(b.dataset.pos), group: b.dataset.group, seen: v.mark || ""});
    }
  });

  function draw() {
    let v = {};
    try { v = JSON.parse(model.view || "{}"); } catch (err) { v = {}; }  // JSON text: one step for Bokeh
    if (!v.mode) { root.innerHTML = ""; return; }  // an empty (preloaded) tray
    const animate = v.roll_id !== lastRoll && lastRoll !== null && (v.anim_ms || 0) > 0;
    root.style.setProperty("--anim", `${v.anim_ms || 0}ms`);
    const rolled = (v.rolled || []).map((d, i) => dieHtml(d, i, "rolled", animate)).join("");
    const kept = (v.kept || []).map((d, i) => dieHtml(d, i, "keep", animate)).join("");
    const w = v.words || {};
    const keepArea = v.show_keep
      ? `<div class="area keep" aria-label="${esc(w.kept || "")}"><div class="area-label">${esc(v.keep_label || w.keep || "")}</div>` +
        `<div class="dice">${kept || `<span class="empty">${esc(w.none || "")}</span>`}</div></div>`
      : "";
    root.innerHTML =
      `<div class="tray ${esc(v.mode || "")}" data-roll-id="${v.roll_id}" data-tick="${v.tick}">` +
      `<div class="area rolled" aria-label="${esc(v.rolled_label || w.dice || "")}">` +
      `<div class="area-label">${esc(v.rolled_label || "")}</div>` +
      `<div class="dice">${rolled || `<span class="empty">${esc(w.no_roll || "")}</span>`}</div></div>` +
      keepArea +
      (v.badge ? `<div class="badge ${esc(v.badge_kind || "")}">${esc(v.badge)}</div>` : "") +
      `</div>`;
    if (animate && v.sound) rattle(v.rolled_n || 5, v.anim_ms || 300);
    lastRoll = v.roll_id;
    if (v.announce && v.announce !== lastAnnounce) {
      live.textContent = v.announce;
      lastAnnounce = v.announce;
    }
  }
  model.on("view", draw);
  draw();
}
