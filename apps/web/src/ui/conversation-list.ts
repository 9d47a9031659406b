/**
 * The client's conversations (GET /conversations, newest first): open one, rename it in place,
 * delete it. A side panel at desktop width, a drawer on a phone.
 */
import { formatDate } from '../lib/format';
import { ConversationSummary } from '../lib/types';
import { h } from './dom';
import { icon } from './icons';

export interface ConversationListActions {
  load(cursor: string | null): Promise<{ conversations: ConversationSummary[]; next_cursor: string | null }>;
  open(id: string): void;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  current(): string | null;
}

function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const day = iso.slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  return day === today ? `hoje, ${d.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' })}` : formatDate(day);
}

export class ConversationList {
  private items: ConversationSummary[] = [];
  private cursor: string | null = null;

  constructor(
    private readonly list: HTMLElement,
    private readonly more: HTMLButtonElement,
    private readonly status: HTMLElement,
    private readonly actions: ConversationListActions,
  ) {
    more.addEventListener('click', () => void this.loadMore());
  }

  /** Reads the first page again (after an answer, a rename, a deletion). */
  async refresh(): Promise<void> {
    try {
      const page = await this.actions.load(null);
      this.items = page.conversations;
      this.cursor = page.next_cursor;
      this.render();
    } catch (e) {
      this.status.textContent = `Não foi possível carregar as conversas: ${(e as Error).message}`;
    }
  }

  private async loadMore(): Promise<void> {
    if (!this.cursor) return;
    this.more.disabled = true;
    try {
      const page = await this.actions.load(this.cursor);
      const known = new Set(this.items.map((c) => c.id));
      this.items.push(...page.conversations.filter((c) => !known.has(c.id)));
      this.cursor = page.next_cursor;
      this.render();
    } finally {
      this.more.disabled = false;
    }
  }

  /** Marks the open conversation without reading the list again. */
  markCurrent(): void {
    const current = this.actions.current();
    for (const li of Array.from(this.list.children) as HTMLElement[]) {
      const open = li.querySelector('.conv-open');
      if (li.dataset.id === current) open?.setAttribute('aria-current', 'true');
      else open?.removeAttribute('aria-current');
    }
  }

  private render(): void {
    this.list.replaceChildren(...this.items.map((c) => this.item(c)));
    this.more.hidden = !this.cursor;
    this.status.textContent = this.items.length ? '' : 'Nenhuma conversa ainda: a primeira pergunta começa uma.';
    this.markCurrent();
  }

  private item(c: ConversationSummary): HTMLElement {
    const open = h('button', { type: 'button', class: 'conv-open' }, h('span', { class: 'conv-title' }, c.title), h('span', { class: 'conv-when' }, when(c.last_activity)));
    open.addEventListener('click', () => this.actions.open(c.id));
    const rename = h('button', { type: 'button', class: 'icon-btn conv-rename', 'aria-label': `Renomear a conversa “${c.title}”`, title: 'Renomear' }, icon('edit'));
    const remove = h('button', { type: 'button', class: 'icon-btn conv-delete', 'aria-label': `Apagar a conversa “${c.title}”`, title: 'Apagar' }, icon('trash'));
    const li = h('li', { class: 'conv-item', 'data-id': c.id }, open, h('div', { class: 'conv-actions' }, rename, remove));
    rename.addEventListener('click', () => this.editTitle(li, c));
    remove.addEventListener('click', () => void this.confirmRemove(li, c));
    return li;
  }

  private editTitle(li: HTMLElement, c: ConversationSummary): void {
    const input = h('input', { class: 'conv-input', maxlength: '120', 'aria-label': 'Novo nome da conversa' });
    input.value = c.title;
    const save = h('button', { type: 'submit', class: 'primary small-btn' }, 'Salvar');
    const cancel = h('button', { type: 'button', class: 'ghost small-btn' }, 'Cancelar');
    const error = h('p', { class: 'error small', role: 'alert' });
    const form = h('form', { class: 'conv-edit' }, input, h('div', { class: 'conv-edit-buttons' }, save, cancel), error);
    li.replaceChildren(form);
    input.focus();
    input.select();
    const close = () => {
      this.render();
      (this.list.querySelector(`[data-id="${CSS.escape(c.id)}"] .conv-rename`) as HTMLElement | null)?.focus();
    };
    cancel.addEventListener('click', close);
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') close();
    });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const title = input.value.trim();
      if (!title) {
        error.textContent = 'Dê um nome à conversa.';
        return;
      }
      save.disabled = true;
      this.actions.rename(c.id, title).then(
        () => {
          c.title = title;
          close();
        },
        (e: Error) => {
          error.textContent = e.message;
          save.disabled = false;
        },
      );
    });
  }

  private async confirmRemove(li: HTMLElement, c: ConversationSummary): Promise<void> {
    const yes = h('button', { type: 'button', class: 'danger small-btn' }, 'Apagar');
    const no = h('button', { type: 'button', class: 'ghost small-btn' }, 'Manter');
    const box = h(
      'div',
      { class: 'conv-confirm', role: 'alertdialog', 'aria-label': 'Apagar a conversa?' },
      h('p', {}, `Apagar “${c.title}”? As perguntas e respostas somem de vez.`),
      h('div', { class: 'conv-edit-buttons' }, yes, no),
    );
    li.replaceChildren(box);
    no.focus();
    no.addEventListener('click', () => this.render());
    yes.addEventListener('click', () => {
      yes.disabled = no.disabled = true;
      this.actions.remove(c.id).then(
        () => {
          this.items = this.items.filter((x) => x.id !== c.id);
          this.render();
        },
        (e: Error) => {
          box.append(h('p', { class: 'error small', role: 'alert' }, e.message));
          yes.disabled = no.disabled = false;
        },
      );
    });
  }
}
