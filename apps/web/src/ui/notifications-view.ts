import { Session } from '../lib/session';
import { fetchNotifications, followNotifications, markNotificationsRead, NotificationItem } from './api';
import { h } from './dom';
import { AlertsList } from './alerts-list';

/**
 * The bell in the header: the unread count as a badge, kept live by the notification stream; its panel
 * lists the client's alert notifications (marked read when opened) and the alerts themselves, each with
 * its pause, resume and remove buttons.
 */
export class NotificationsView {
  private abort: AbortController | null = null;
  private unread = 0;
  private items: NotificationItem[] = [];
  /** The notifications' part of the panel (the alerts list follows it). */
  private readonly list = h('section', { class: 'notifs-box', 'aria-labelledby': 'notifs-title' });

  constructor(
    private readonly button: HTMLButtonElement,
    private readonly badge: HTMLElement,
    private readonly panel: HTMLElement,
  ) {
    button.addEventListener('click', () => void this.toggle());
  }

  start(session: Session): void {
    this.stop();
    this.session = session;
    const abort = (this.abort = new AbortController());
    const follow = async (): Promise<void> => {
      while (!abort.signal.aborted) {
        try {
          await followNotifications(session, { unread: (n) => this.setUnread(n), notification: (n) => this.add(n) }, abort.signal);
        } catch {
          /* the stream dropped (server restarted, network): open it again shortly */
        }
        if (!abort.signal.aborted) await new Promise((r) => setTimeout(r, 5000));
      }
    };
    void follow();
  }

  stop(): void {
    this.abort?.abort();
    this.abort = null;
    this.items = [];
    this.setUnread(0);
    this.panel.hidden = true;
  }

  private session: Session | null = null;

  private setUnread(n: number): void {
    this.unread = n;
    this.badge.textContent = n > 99 ? '99+' : String(n);
    this.badge.hidden = n === 0;
    this.button.setAttribute('aria-label', n ? `Alertas: ${n} notificaç${n === 1 ? 'ão não lida' : 'ões não lidas'}` : 'Alertas');
  }

  private add(n: NotificationItem): void {
    this.items = [n, ...this.items.filter((x) => x.notification_id !== n.notification_id)];
    this.setUnread(this.unread + 1);
    if (!this.panel.hidden) this.render();
  }

  private async toggle(): Promise<void> {
    const open = this.panel.hidden;
    this.panel.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (!open || !this.session) return;
    const alerts = new AlertsList(this.session);
    this.panel.replaceChildren(this.list, alerts.element);
    this.list.replaceChildren(h('p', { class: 'muted' }, 'Carregando…'));
    void alerts.load();
    try {
      const list = await fetchNotifications(this.session);
      this.items = list.notifications;
      this.render();
      if (list.unread) this.setUnread((await markNotificationsRead(this.session)).unread);
    } catch {
      this.list.replaceChildren(h('p', { class: 'error', role: 'alert' }, 'Não foi possível carregar as notificações.'));
    }
  }

  private render(): void {
    const title = h('h3', { id: 'notifs-title', class: 'notifs-title' }, 'Notificações');
    if (!this.items.length) {
      this.list.replaceChildren(title, h('p', { class: 'muted' }, 'Nenhuma notificação ainda.'));
      return;
    }
    const when = (iso: string) => new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' });
    this.list.replaceChildren(
      title,
      h(
        'ul',
        { class: 'notif-list' },
        ...this.items.map((n) =>
          h('li', { class: n.read ? 'notif' : 'notif unread' }, h('strong', {}, n.title), h('p', {}, n.body), h('time', { datetime: n.created_at }, when(n.created_at))),
        ),
      ),
    );
  }
}
