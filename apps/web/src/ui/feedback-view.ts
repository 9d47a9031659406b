/** 👍/👎 under an answer, then an optional comment: each sent at once, a second verdict replacing the first. */
import { h } from './dom';
import { icon } from './icons';

export type SendFeedback = (rating: 'up' | 'down', comment: string | null) => Promise<void>;

const PROMPT = { up: 'Quer comentar? (opcional)', down: 'O que estava errado? (opcional)' } as const;

export function feedbackBox(send: SendFeedback): HTMLElement {
  const up = h(
    'button',
    { type: 'button', class: 'fb', 'data-rating': 'up', 'aria-pressed': 'false', title: 'Resposta útil' },
    icon('up'),
    h('span', { class: 'sr-only' }, 'Resposta útil'),
  );
  const down = h(
    'button',
    { type: 'button', class: 'fb', 'data-rating': 'down', 'aria-pressed': 'false', title: 'Resposta com problema' },
    icon('down'),
    h('span', { class: 'sr-only' }, 'Resposta com problema'),
  );
  const status = h('span', { class: 'fb-status', role: 'status' });
  const text = h('textarea', { class: 'fb-text', rows: '2', maxlength: '1000' });
  const label = h('label', { class: 'fb-label' }, h('span', {}, ''), text);
  const submit = h('button', { type: 'submit', class: 'ghost small-btn' }, 'Enviar comentário');
  const form = h('form', { class: 'fb-comment', hidden: true }, label, submit);
  let rating: 'up' | 'down' | null = null;

  const choose = async (r: 'up' | 'down') => {
    up.disabled = down.disabled = true;
    try {
      await send(r, null);
      rating = r;
      up.setAttribute('aria-pressed', String(r === 'up'));
      down.setAttribute('aria-pressed', String(r === 'down'));
      (label.firstChild as HTMLElement).textContent = PROMPT[r];
      form.hidden = false;
      status.textContent = 'Obrigado! Sua avaliação foi registrada.';
      if (r === 'down') text.focus();
    } catch (e) {
      status.textContent = `Não foi possível registrar: ${(e as Error).message}`;
    } finally {
      up.disabled = down.disabled = false;
    }
  };
  up.addEventListener('click', () => void choose('up'));
  down.addEventListener('click', () => void choose('down'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const comment = text.value.trim();
    if (!rating || !comment) return;
    submit.disabled = true;
    send(rating, comment).then(
      () => {
        form.hidden = true;
        status.textContent = 'Comentário enviado. Obrigado!';
      },
      (e: Error) => {
        status.textContent = `Não foi possível enviar: ${e.message}`;
        submit.disabled = false;
      },
    );
  });
  return h('div', { class: 'feedback', role: 'group', 'aria-label': 'Avaliar esta resposta' }, h('div', { class: 'fb-buttons' }, up, down, status), form);
}
