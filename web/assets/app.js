// The page of an ANYNT study. It shows what the server's view says and
// sends the participant's clicks; the server decides every move. No
// framework, nothing fetched from elsewhere.
"use strict";

(function () {
  // The neutral symbols, by the names the server gives them: none is a
  // reward's sign, a plus or a minus, which would carry a meaning.
  const GLYPHS = {
    you: "○", diamond: "◆", pentagon: "⬟", triangle: "▲", star: "★", parallelogram: "▰",
    hexagon: "⬢", rook: "♜", bowtie: "⧓", club: "♣", spade: "♠",
  };
  const SIGNS = {
    "1": { icon: "↑", word: "gained" },
    "0": { icon: "■", word: "nothing" },
    "-1": { icon: "↓", word: "lost" },
  };
  const COLOURS = 12; // style.css's palette
  // The study's bounds, in bytes of UTF-8 as the server counts them
  // (study.MaxCode, study.MaxReply): a letter outside English may take 2
  // to 4 bytes, so the page counts bytes, not characters.
  const MAX_CODE = 64;
  const MAX_REPLY = 1000;
  const utf8 = new TextEncoder();
  const bytes = (text) => utf8.encode(text).length;

  const $ = (id) => document.getElementById(id);
  const sections = ["intro", "test", "pause", "over"];

  let view = null;        // the last view served
  let shownAt = 0;        // performance.now() when the view was drawn
  let busy = false;       // a request is in flight: further clicks are ignored
  let continued = 0;      // the exercise whose pause screen was passed
  let questions = 0;      // the number of intro questions

  function show(id) {
    for (const s of sections) $(s).hidden = s !== id;
  }

  function showError(msg) {
    const e = $("error");
    e.textContent = msg;
    e.hidden = msg === "";
  }

  async function api(method, path, body) {
    const init = { method, headers: {}, credentials: "same-origin", cache: "no-store" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (err) {
      return { status: 0, data: { error: "The server cannot be reached. Wait a moment and try again." } };
    }
    // The body is read whole, even an empty one (204): a fetch whose body
    // is left unread is reported as cancelled.
    let data = null;
    try {
      const text = await res.text();
      data = text === "" ? null : JSON.parse(text);
    } catch (err) {
      data = null;
    }
    if (data === null && res.status !== 204) data = { error: "The server's answer could not be read." };
    return { status: res.status, data };
  }

  // glyph splits a name such as "star" or "star2" (when an exercise has
  // more objects than symbols) into its symbol and spoken name.
  function glyph(name) {
    const m = /^([a-z]+)(\d*)$/.exec(name);
    if (!m || !(m[1] in GLYPHS)) return { symbol: "?", suffix: "", spoken: name };
    return { symbol: GLYPHS[m[1]], suffix: m[2], spoken: m[2] ? m[1] + " " + m[2] : m[1] };
  }

  function cellLabel(c) {
    const objects = c.objects.length ? c.objects.map((o) => glyph(o).spoken).join(", ") : "empty";
    return "Cell " + c.number + ": " + objects + "; " + (c.accessible ? "reachable" : "not reachable");
  }

  function drawCell(c) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "cell" + (c.accessible ? " accessible" : "");
    b.dataset.cell = String(c.number);
    b.dataset.color = String(((c.number - 1) % COLOURS) + 1);
    b.disabled = !c.accessible;
    b.setAttribute("aria-label", cellLabel(c));
    const num = document.createElement("span");
    num.className = "number";
    num.textContent = String(c.number);
    num.setAttribute("aria-hidden", "true");
    const objs = document.createElement("span");
    objs.className = "objects";
    objs.setAttribute("aria-hidden", "true");
    for (const o of c.objects) {
      const g = glyph(o);
      const s = document.createElement("span");
      s.className = "glyph" + (o === "you" ? " you" : "");
      s.dataset.object = o;
      s.textContent = g.symbol;
      if (g.suffix) {
        const sub = document.createElement("sub");
        sub.textContent = g.suffix;
        s.appendChild(sub);
      }
      objs.appendChild(s);
    }
    b.append(num, objs);
    b.addEventListener("click", () => move(c.number));
    return b;
  }

  function drawExercises(v) {
    const list = $("exercise-list");
    list.replaceChildren();
    for (const x of v.exercises) {
      const li = document.createElement("li");
      li.dataset.exercise = String(x.number);
      li.textContent = "Exercise " + x.number + ": " + x.steps + " steps";
      if (x.number < v.exercise) {
        li.className = "done";
        li.textContent += " (done)";
      } else if (x.number === v.exercise) {
        li.className = "current";
        li.setAttribute("aria-current", "step");
        li.textContent += " (" + x.done + " done)";
      }
      list.appendChild(li);
    }
  }

  function steps(v) {
    const x = v.exercises[v.exercise - 1];
    return x ? x.steps : 0;
  }

  // drawTest draws the exercise under way; a reward of the previous
  // exercise (after its pause) is not shown.
  function drawTest(v, focusCell) {
    drawExercises(v);
    const stepText = "Exercise " + v.exercise + " of " + v.exercises.length +
      ": step " + (v.step + 1) + " of " + steps(v);
    $("step").textContent = stepText;
    const reward = $("reward");
    const last = v.last && v.last.exercise === v.exercise ? v.last : null;
    if (last) {
      const s = SIGNS[String(last.sign)];
      reward.dataset.sign = String(last.sign);
      reward.textContent = s.icon;
      reward.setAttribute("aria-label", "Step " + last.step + ": " + s.word);
      $("live").textContent = "Step " + last.step + ": " + s.word + ". " + stepText + ".";
    } else {
      reward.dataset.sign = "";
      reward.textContent = "";
      reward.removeAttribute("aria-label");
      $("live").textContent = stepText + ".";
    }
    const cells = $("cells");
    cells.replaceChildren(...v.cells.map(drawCell));
    show("test");
    const target = cells.querySelector('.cell[data-cell="' + focusCell + '"]:not([disabled])') ||
      cells.querySelector(".cell .you")?.closest(".cell:not([disabled])");
    if (target) target.focus();
  }

  function drawPause(v) {
    const s = SIGNS[String(v.last.sign)];
    $("pause-title").textContent = "Exercise " + v.last.exercise + " done";
    $("pause-last").textContent = "Last step: ";
    const icon = document.createElement("span");
    icon.className = "sign";
    icon.dataset.sign = String(v.last.sign);
    icon.textContent = s.icon;
    icon.setAttribute("aria-hidden", "true");
    $("pause-last").append(icon, " " + s.word + ".");
    $("pause-next").textContent = "Next: exercise " + v.exercise + " of " + v.exercises.length +
      ", " + steps(v) + " steps.";
    show("pause");
    // The live region is hidden with the cells: Continue, described by
    // the last step's reward and the next exercise, says both.
    $("continue").focus();
  }

  // render shows a view: the end, the pause between two exercises, or the
  // exercise under way.
  function render(v, focusCell) {
    view = v;
    showError("");
    if (v.over) {
      show("over");
      // The cells, and the focus with them, are gone: a screen reader
      // says where the participant is.
      $("over-title").focus();
    } else if (v.last && v.last.exercise < v.exercise && continued !== v.exercise) {
      drawPause(v);
    } else {
      drawTest(v, focusCell);
    }
    shownAt = performance.now();
  }

  async function refresh() {
    const r = await api("GET", "/api/view");
    if (r.status === 200) {
      render(r.data);
    } else if (r.status === 204 || r.status === 403) {
      // 204: no session yet (a first visit); 403: one the server does
      // not know (another study's cookie).
      await intro();
    } else {
      showError(r.data.error);
    }
  }

  async function move(cell) {
    if (busy || !view || view.over) return;
    busy = true;
    const clientMs = Math.round((performance.now() - shownAt) * 1000) / 1000;
    try {
      const r = await api("POST", "/api/move", {
        participant: view.participant, seq: view.seq, cell, client_ms: clientMs,
      });
      if (r.status === 200) {
        render(r.data, cell);
      } else if (r.status === 409 || r.status === 422 || r.status === 403) {
        // The view was out of date (a second tab, a restarted server):
        // show the server's, and say why the click did nothing.
        await refresh();
        if (view && !view.over && !$("test").hidden) {
          showError("The page was out of date and now shows where the test stands. Please choose again.");
        }
      } else {
        showError(r.data.error);
      }
    } finally {
      busy = false;
    }
  }

  function moveFocus(e) {
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    const cells = Array.from($("cells").querySelectorAll(".cell:not([disabled])"));
    let i = cells.indexOf(document.activeElement);
    if (e.key in keys) {
      i = i < 0 ? 0 : (i + keys[e.key] + cells.length) % cells.length;
    } else if (e.key === "Home") {
      i = 0;
    } else if (e.key === "End") {
      i = cells.length - 1;
    } else {
      return;
    }
    e.preventDefault();
    if (cells[i]) cells[i].focus();
  }

  async function intro() {
    const r = await api("GET", "/api/intro");
    if (r.status !== 200) {
      showError(r.data.error);
      return;
    }
    const d = r.data;
    $("consent-box").hidden = d.consent === "";
    $("consent-text").textContent = d.consent;
    $("consent").required = d.consent !== "";
    $("code-box").hidden = !d.ask_code;
    $("code").required = d.ask_code;
    const qs = $("questions");
    qs.replaceChildren();
    questions = d.questions.length;
    d.questions.forEach((q, i) => {
      const label = document.createElement("label");
      label.htmlFor = "question-" + (i + 1);
      label.textContent = q;
      const area = document.createElement("textarea");
      area.id = "question-" + (i + 1);
      area.maxLength = MAX_REPLY; // characters: never fewer than bytes, so only a first bound
      area.rows = 2;
      const limit = document.createElement("small");
      limit.id = area.id + "-limit";
      limit.className = "limit";
      area.setAttribute("aria-describedby", limit.id);
      qs.append(label, area, limit);
      countBytes(area, MAX_REPLY);
    });
    // The code is sent as typed: a blank at either end is refused by the
    // server, with a message, rather than dropped unseen.
    countBytes($("code"), MAX_CODE);
    show("intro");
  }

  // countBytes shows under a field how many of its limit's bytes it
  // uses, as the participant types, and marks it invalid beyond.
  function countBytes(field, limit) {
    const note = $(field.id + "-limit");
    const update = () => {
      const n = bytes(field.value);
      note.textContent = n + " of at most " + limit + " bytes (some letters take 2 to 4)";
      field.setAttribute("aria-invalid", String(n > limit));
    };
    field.oninput = update;
    update();
  }

  // tooLong names the first field over its limit, with what to tell the
  // participant; null when none is.
  function tooLong(code, replies) {
    const n = bytes(code);
    if (n > MAX_CODE) {
      return { field: "code", msg: "The participant code is " + n + " bytes long; it can be at most " + MAX_CODE + " bytes. Please shorten it." };
    }
    for (let i = 0; i < replies.length; i++) {
      const m = bytes(replies[i]);
      if (m > MAX_REPLY) {
        return { field: "question-" + (i + 1), msg: "Answer " + (i + 1) + " is " + m + " bytes long; it can be at most " + MAX_REPLY + " bytes. Please shorten it." };
      }
    }
    return null;
  }

  async function start(e) {
    e.preventDefault();
    if (busy) return;
    const replies = [];
    for (let i = 1; i <= questions; i++) replies.push($("question-" + i).value);
    const long = tooLong($("code").value, replies);
    if (long) {
      showError(long.msg);
      $(long.field).focus();
      return;
    }
    busy = true;
    try {
      const r = await api("POST", "/api/start", {
        consent: $("consent").checked, code: $("code").value, replies,
      });
      if (r.status === 200) {
        render(r.data);
      } else {
        showError(r.data.error);
      }
    } finally {
      busy = false;
    }
  }

  function init() {
    $("intro-form").addEventListener("submit", start);
    $("continue").addEventListener("click", () => {
      if (!view) return;
      continued = view.exercise;
      // The next exercise's view came with the answer to the last move:
      // drawn now, it starts the page's clock. Asking the server again
      // would serve the view a second time, as a reload does, and the
      // server would then count its own time, pause included.
      render(view);
    });
    $("cells").addEventListener("keydown", moveFocus);
    refresh();
  }

  init();
})();
