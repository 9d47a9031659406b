/**
 * The fallback chat page: `/` serves the app built by apps/web (web/web.controller.ts); only when
 * that build is missing (a bare `tsc`) is this single self-contained HTML file served instead. With
 * a nonce, its inline `<script>` and `<style>` carry it, so the response's CSP can allow exactly them.
 */
export function renderChatPage(nonce?: string): string {
  if (!nonce) return PAGE;
  if (!/^[A-Za-z0-9+/=]+$/.test(nonce)) throw new Error('invalid CSP nonce');
  return PAGE.replace('<style>', `<style nonce="${nonce}">`).replace('<script>', `<script nonce="${nonce}">`);
}

const PAGE = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cota · assistente de FIIs</title>
<style>
  :root { --bg:#f5f7fb; --card:#fff; --ink:#1d2433; --muted:#667085; --brand:#0f766e; --me:#e0f2f1; --line:#e4e7ec; }
  * { box-sizing: border-box; }
  body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; background:var(--bg); color:var(--ink); }
  header { background:var(--brand); color:#fff; padding:14px 20px; display:flex; align-items:center; gap:12px; }
  header h1 { font-size:18px; margin:0; }
  header span { opacity:.85; font-size:13px; }
  main { max-width:900px; margin:0 auto; padding:16px; display:flex; flex-direction:column; height:calc(100vh - 56px); }
  details.cfg { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:8px 12px; margin-bottom:12px; }
  details.cfg label { display:inline-flex; flex-direction:column; font-size:12px; color:var(--muted); margin:6px 10px 6px 0; }
  details.cfg input { font:inherit; padding:6px 8px; border:1px solid var(--line); border-radius:6px; min-width:200px; }
  #log { flex:1; overflow-y:auto; padding:8px 4px; }
  .msg { max-width:85%; margin:8px 0; padding:10px 14px; border-radius:12px; background:var(--card); border:1px solid var(--line); white-space:pre-wrap; }
  .msg.me { margin-left:auto; background:var(--me); border-color:#b2dfdb; }
  .msg.err { border-color:#fda29b; background:#fef3f2; }
  .msg table { border-collapse:collapse; margin:6px 0; font-size:13px; white-space:normal; }
  .msg th, .msg td { border:1px solid var(--line); padding:3px 8px; text-align:left; }
  .msg th { background:#f2f4f7; }
  .meta { font-size:12px; color:var(--muted); margin-top:6px; }
  .meta summary { cursor:pointer; }
  .meta pre { white-space:pre-wrap; word-break:break-word; background:#f8fafc; padding:8px; border-radius:6px; max-height:300px; overflow:auto; }
  form.ask { display:flex; gap:8px; padding-top:10px; }
  form.ask input { flex:1; font:inherit; padding:12px; border:1px solid var(--line); border-radius:10px; }
  form.ask button { font:inherit; padding:0 18px; border:0; border-radius:10px; background:var(--brand); color:#fff; cursor:pointer; }
  form.ask button:disabled { opacity:.5; cursor:wait; }
  .hint { color:var(--muted); font-size:13px; }
</style>
</head>
<body>
<header><h1>Cota</h1><span>Pergunte sobre fundos imobiliários, o mercado e a sua carteira</span></header>
<main>
  <details class="cfg" id="cfg">
    <summary>Configuração (chave de API e cliente)</summary>
    <label>Chave de API<input id="key" type="password" autocomplete="off" placeholder="cota_..."></label>
    <label>Cliente (client_id)<input id="client" placeholder="cliente-demo-1"></label>
    <label>Seu apelido<input id="nick" placeholder="Ana"></label>
    <label>Conversa<input id="conv" readonly></label>
    <button type="button" id="newconv">Nova conversa</button>
  </details>
  <div id="log" aria-live="polite">
    <p class="hint">Exemplos: "CNPJ do HGLG11?", depois "Esse fundo tem Sharpe bom?" e "E o overview dele?"; "Qual a Selic hoje?"; "Quanto valem meus FIIs hoje?"; "o que temos pra hoje?".</p>
  </div>
  <form class="ask" id="form"><input id="q" autocomplete="off" placeholder="Escreva sua pergunta..." required><button id="send">Enviar</button></form>
</main>
<script>
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var store = window.localStorage;
  ['key','client','nick'].forEach(function (f) { $(f).value = store.getItem('cota.' + f) || ''; $(f).addEventListener('change', function () { store.setItem('cota.' + f, $(f).value.trim()); }); });
  function newConversation() { var id = 'web-' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8); store.setItem('cota.conv', id); $('conv').value = id; }
  $('conv').value = store.getItem('cota.conv') || ''; if (!$('conv').value) newConversation();
  $('newconv').addEventListener('click', function () { newConversation(); $('log').innerHTML = ''; });
  if (!$('key').value) $('cfg').open = true;

  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'})[c]; }); }
  // Small markdown subset: tables, **bold**, line breaks. Everything is escaped first.
  function render(text) {
    var lines = esc(text).split('\\n'), out = [], i = 0;
    while (i < lines.length) {
      if (/^\\s*\\|.*\\|\\s*$/.test(lines[i]) && i + 1 < lines.length && /^\\s*\\|[\\s:|-]+\\|\\s*$/.test(lines[i + 1])) {
        var head = lines[i].trim().slice(1, -1).split('|'); i += 2; var rows = [];
        while (i < lines.length && /^\\s*\\|.*\\|\\s*$/.test(lines[i])) { rows.push(lines[i].trim().slice(1, -1).split('|')); i++; }
        out.push('<table><tr>' + head.map(function (h) { return '<th>' + h.trim() + '</th>'; }).join('') + '</tr>' +
          rows.map(function (r) { return '<tr>' + r.map(function (c) { return '<td>' + c.trim() + '</td>'; }).join('') + '</tr>'; }).join('') + '</table>');
      } else { out.push(lines[i]); i++; }
    }
    return out.join('\\n').replace(/\\*\\*([^*]+)\\*\\*/g, '<b>$1</b>');
  }
  function add(cls, html) { var d = document.createElement('div'); d.className = 'msg ' + cls; d.innerHTML = html; $('log').appendChild(d); $('log').scrollTop = $('log').scrollHeight; return d; }

  $('form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var q = $('q').value.trim(); if (!q) return;
    var key = $('key').value.trim(), client = $('client').value.trim();
    if (!key || !client) { $('cfg').open = true; add('err', 'Informe a chave de API e o client_id na configuração.'); return; }
    add('me', esc(q)); $('q').value = ''; $('send').disabled = true;
    var bubble = null, shown = '';
    function finish(b) {
      var m = b.meta || {};
      var info = [m.entity || m.intent, m.context && m.context.last_reference_used ? 'ticker herdado da conversa' : null, m.narrator && m.narrator.llm_used ? 'texto revisado por IA' : null]
        .filter(Boolean).join(' · ');
      var html = render(b.answer) + '<div class="meta">' + esc(info) +
        '<details><summary>detalhes</summary><pre>' + esc(JSON.stringify({ status: b.status, meta: m }, null, 2)) + '</pre></details></div>';
      if (bubble) { bubble.className = 'msg' + (b.status === 'error' ? ' err' : ''); bubble.innerHTML = html; } else { add(b.status === 'error' ? 'err' : '', html); }
    }
    function handle(raw) {
      var ev = 'message', data = '';
      raw.split('\\n').forEach(function (l) { if (l.indexOf('event: ') === 0) ev = l.slice(7); else if (l.indexOf('data: ') === 0) data += l.slice(6); });
      if (!data) return;
      var d = JSON.parse(data);
      // Deltas are guarded sentences written by the model; the final answer replaces them.
      if (ev === 'delta') { shown += d.text; if (!bubble) bubble = add('', ''); bubble.innerHTML = render(shown); }
      else if (ev === 'answer') finish(d);
      else if (ev === 'error') { if (!bubble) bubble = add('err', ''); bubble.className = 'msg err'; bubble.textContent = d.error.message; }
    }
    fetch('/ask/stream', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
      body: JSON.stringify({ question: q, conversation_id: $('conv').value, nickname: $('nick').value.trim(), client_id: client }) })
      .then(function (r) {
        if (!r.ok) return r.json().then(function (b) { add('err', esc(b.error ? b.error.message : 'Erro.')); });
        var reader = r.body.getReader(), dec = new TextDecoder(), buf = '';
        function pump() {
          return reader.read().then(function (x) {
            if (x.done) return;
            buf += dec.decode(x.value, { stream: true });
            var i; while ((i = buf.indexOf('\\n\\n')) >= 0) { handle(buf.slice(0, i)); buf = buf.slice(i + 2); }
            return pump();
          });
        }
        return pump();
      })
      .catch(function () { add('err', 'Não foi possível falar com o servidor.'); })
      .finally(function () { $('send').disabled = false; $('q').focus(); });
  });
})();
</script>
</body>
</html>`;
