// caipan broadcast page script (issue 35): draws every board as SVG with
// the Chinese piece glyphs, marks the last move, ticks the clocks between
// events and follows /events (Server-Sent Events: a snapshot, then a tick
// of the changed boards at most five times a second; the browser resumes
// with Last-Event-ID by itself and gets a catchup of what changed).
// Hand-written, no library, no network beyond this server. Every text from the server goes in through textContent,
// never innerHTML, so a name cannot become markup.
'use strict';
(function () {
  const body = document.body;
  const W = JSON.parse(document.getElementById('words').textContent);
  const mode = body.dataset.mode;
  const notation = body.dataset.notation;
  const hant = body.dataset.lang === 'zh-Hant';
  const skew = Date.now() - Number(body.dataset.now || Date.now());
  const delay = Number(body.dataset.delay || 0);
  const round = Number(body.dataset.round || 0);
  const games = new Map();
  const NS = 'http://www.w3.org/2000/svg';
  const GLYPH = {
    K: '帥', A: '仕', B: '相', E: '相', N: '傌', H: '傌', R: '俥', C: '炮', P: '兵',
    k: '將', a: '士', b: '象', e: '象', n: '馬', h: '馬', r: '車', c: '砲', p: '卒'
  };
  const HANT = { '车': '車', '马': '馬', '帅': '帥', '将': '將', '进': '進', '后': '後' };
  const RESULT = { '1-0': 'red-wins', '0-1': 'black-wins', '1/2-1/2': 'draw', '0-0': 'both-lose' };

  function t(key) { return W.terms[key] || key; }

  function clockText(ms) {
    const s = Math.floor(Math.max(0, ms) / 1000);
    const two = n => String(n).padStart(2, '0');
    if (s >= 3600) return Math.floor(s / 3600) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60);
    return Math.floor(s / 60) + ':' + two(s % 60);
  }

  function statusText(g) {
    if (g.status === 'finished') {
      return t(RESULT[g.result] || 'draw') + ' (' + (W.reasons[g.reason] || g.reason || '') + ')';
    }
    return t(g.status);
  }

  function moveText(g, i) {
    if (notation === 'wxf' && g.wxf && g.wxf[i]) return g.wxf[i];
    if (notation === 'zh' && g.zh && g.zh[i]) {
      return hant ? g.zh[i].replace(/[车马帅将进后]/g, c => HANT[c]) : g.zh[i];
    }
    return g.moves[i];
  }

  // The board: [rank][file], rank 0 Red's back rank (ICCS numbering).
  function parseFen(fen) {
    const b = [];
    for (let r = 0; r < 10; r++) b.push(new Array(9).fill(null));
    String(fen || '').split(' ')[0].split('/').slice(0, 10).forEach((row, i) => {
      let f = 0;
      for (const ch of row) {
        if (ch >= '1' && ch <= '9') f += Number(ch);
        else { if (f < 9) b[9 - i][f] = ch; f++; }
      }
    });
    return b;
  }

  function square(s) { return [s.charCodeAt(0) - 97, s.charCodeAt(1) - 48]; }
  function onBoard(f, r) { return f >= 0 && f < 9 && r >= 0 && r < 10; }

  function position(g) {
    const b = parseFen(g.fen);
    for (const m of g.moves) {
      const [ff, fr] = square(m.slice(0, 2));
      const [tf, tr] = square(m.slice(2, 4));
      if (onBoard(ff, fr) && onBoard(tf, tr)) { b[tr][tf] = b[fr][ff]; b[fr][ff] = null; }
    }
    return b;
  }

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function drawBoard(g) {
    const svg = el('svg', { viewBox: '-6 -6 92 102', class: 'xq' });
    const X = f => f * 10;
    const Y = r => (9 - r) * 10;
    const lines = el('g', { class: 'lines' });
    const line = (x1, y1, x2, y2) => lines.append(el('line', { x1, y1, x2, y2 }));
    for (let r = 0; r < 10; r++) line(0, Y(r), 80, Y(r));
    for (let f = 0; f < 9; f++) {
      if (f === 0 || f === 8) line(X(f), 0, X(f), 90);
      else { line(X(f), 0, X(f), 40); line(X(f), 50, X(f), 90); }
    }
    line(30, 0, 50, 20); line(50, 0, 30, 20); line(30, 70, 50, 90); line(50, 70, 30, 90);
    svg.append(lines);
    svg.append(el('text', { x: 20, y: 45, class: 'river' }, '楚 河'));
    svg.append(el('text', { x: 60, y: 45, class: 'river' }, '漢 界'));
    const last = g.moves[g.moves.length - 1];
    if (last) {
      for (const s of [last.slice(0, 2), last.slice(2, 4)]) {
        const [f, r] = square(s);
        if (onBoard(f, r)) svg.append(el('rect', { x: X(f) - 5, y: Y(r) - 5, width: 10, height: 10, class: 'last' }));
      }
    }
    const b = position(g);
    for (let r = 0; r < 10; r++) {
      for (let f = 0; f < 9; f++) {
        const p = b[r][f];
        if (!p) continue;
        const red = p === p.toUpperCase();
        const piece = el('g', { class: 'piece ' + (red ? 'red' : 'black') });
        piece.append(el('circle', { cx: X(f), cy: Y(r), r: 4.5 }));
        piece.append(el('text', { x: X(f), y: Y(r) }, GLYPH[p] || p));
        svg.append(piece);
      }
    }
    return svg;
  }

  function shown(g, side) {
    let ms = side === 'red' ? g.clock.red_ms : g.clock.black_ms;
    if (g.status === 'playing' && g.clock.running === side) {
      ms -= Math.max(0, Date.now() - skew - delay - (g.clock.at_ms || 0));
    }
    return ms;
  }

  function renderClocks(g, art) {
    for (const c of art.querySelectorAll('.clock')) {
      const side = c.dataset.side;
      c.textContent = t(side) + ' ' + clockText(shown(g, side));
      c.classList.toggle('running', g.status === 'playing' && g.clock.running === side);
    }
  }

  function render(g) {
    const art = document.getElementById('t' + g.table);
    if (!art) return;
    const st = art.querySelector('.status');
    st.textContent = statusText(g);
    st.className = 'status ' + g.status;
    renderClocks(g, art);
    const place = art.querySelector('.board');
    if (place) place.replaceChildren(drawBoard(g));
    const ol = art.querySelector('ol');
    if (ol) {
      // Plies taken back (or given anew) leave the list first.
      const keep = Math.min(g.keep === undefined ? g.moves.length : g.keep, g.moves.length);
      while (ol.children.length > keep) ol.lastChild.remove();
      g.keep = undefined;
      for (let i = ol.children.length; i < g.moves.length; i++) {
        const li = document.createElement('li');
        li.textContent = moveText(g, i);
        ol.append(li);
      }
      const n = art.querySelector('.count');
      if (n) n.textContent = String(g.moves.length);
    }
    for (const row of document.querySelectorAll('tr[data-table="' + g.table + '"] td.result')) {
      row.textContent = g.status === 'finished' ? g.result : '–';
      row.title = statusText(g);
    }
  }

  // The hall display: pairings before the round, the results after it,
  // between them the boards a screenful at a time, turning every 15 s.
  let screen = 0;
  function perScreen() {
    const cols = Math.max(1, Math.floor(window.innerWidth / 460));
    const rows = Math.max(1, Math.floor(window.innerHeight / 560));
    return cols * rows;
  }
  function layout() {
    if (mode !== 'display') return;
    const all = Array.from(games.values());
    const before = all.length > 0 && all.every(g => g.status === 'waiting');
    const after = all.length > 0 && all.every(g => g.status === 'finished');
    document.getElementById('before').hidden = !before;
    document.getElementById('after').hidden = !after;
    const boards = document.getElementById('boards');
    boards.hidden = before || after;
    const arts = Array.from(boards.querySelectorAll('article.game'));
    const per = perScreen();
    const screens = Math.max(1, Math.ceil(arts.length / per));
    screen %= screens;
    arts.forEach((a, i) => { a.hidden = Math.floor(i / per) !== screen; });
  }

  function table(d) { return games.get(d.table); }

  function connect() {
    const live = document.getElementById('live');
    const es = new EventSource('/events');
    es.addEventListener('open', () => { live.hidden = false; live.textContent = '● ' + t('live'); });
    es.addEventListener('error', () => { live.hidden = false; live.textContent = '○ ' + t('reconnecting'); });
    es.addEventListener('snapshot', e => {
      const s = JSON.parse(e.data);
      if (s.round !== round) { location.reload(); return; }
      for (const g of s.games) { games.set(g.table, g); render(g); }
      layout();
    });
    // One `tick` per tick of the hub, and a `catchup` after falling
    // behind or resuming: the boards that changed, each from the first
    // ply this page lacks (`from`), with the clocks, status and result now.
    const changes = e => {
      const d = JSON.parse(e.data);
      if (d.round !== round) { location.reload(); return; }
      for (const c of d.games) {
        const g = table(c);
        if (!g) continue;
        g.keep = Math.min(g.moves.length, c.from);
        for (const k of ['moves', 'wxf', 'zh', 'clocks_ms']) {
          g[k].length = Math.min(g[k].length, c.from);
          for (const x of c[k]) g[k].push(x);
        }
        g.clock = c.clock;
        g.status = c.status; g.result = c.result; g.reason = c.reason;
        render(g);
      }
      layout();
    };
    es.addEventListener('tick', changes);
    es.addEventListener('catchup', changes);
  }

  setInterval(() => {
    for (const g of games.values()) {
      if (g.status !== 'playing') continue;
      const art = document.getElementById('t' + g.table);
      if (art) renderClocks(g, art);
    }
  }, 250);
  if (mode === 'display') {
    setInterval(() => { screen++; layout(); }, 15000);
    window.addEventListener('resize', layout);
  }
  if (mode !== 'pairings') connect();
}());
