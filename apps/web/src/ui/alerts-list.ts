import { Session } from '../lib/session';
import { AlertItem, changeAlert, fetchAlerts } from './api';
import { h } from './dom';

const STATUS: Record<AlertItem['status'], string> = { active: 'ativo', paused: 'pausado' };

/**
 * The client's alerts in the notifications panel, each with its buttons: pause or resume, and remove.
 * Created in the conversation only, where the rule is read back and confirmed.
 */
export class AlertsList {
  readonly element = h('section', { class: 'alerts-box', 'aria-labelledby': 'alerts-title' });
  private readonly status = h('p', { class: 'muted small', role: 'status' });

  constructor(private readonly session: Session) {}

  async load(): Promise<void> {
    try {
      this.render((await fetchAlerts(this.session)).alerts);
    } catch {
      this.render(null);
      this.status.textContent = 'Não foi possível carregar os seus alertas.';
    }
  }

  private async act(alert: AlertItem, action: 'pause' | 'resume' | 'remove'): Promise<void> {
    for (const b of this.element.querySelectorAll('button')) (b as HTMLButtonElement).disabled = true;
    try {
      const r = await changeAlert(this.session, alert.alert_id, action);
      this.render(r.alerts);
      this.status.textContent = r.message;
    } catch (e) {
      await this.load();
      this.status.textContent = e instanceof Error ? e.message : 'Não foi possível mudar o alerta.';
    }
  }

  private render(alerts: AlertItem[] | null): void {
    const title = h('h3', { id: 'alerts-title', class: 'notifs-title' }, 'Seus alertas');
    if (!alerts?.length) {
      const none = alerts ? h('p', { class: 'muted' }, 'Você não tem alertas. Crie um na conversa, por exemplo: "me avise quando o XPML11 anunciar dividendo".') : null;
      this.element.replaceChildren(title, none ?? '', this.status);
      return;
    }
    const items = alerts.map((a) => {
      const toggle = a.status === 'active' ? (['pause', 'Pausar'] as const) : (['resume', 'Reativar'] as const);
      const pause = h('button', { type: 'button', class: 'ghost small', 'aria-label': `${toggle[1]} o alerta ${a.number}` }, toggle[1]);
      const remove = h('button', { type: 'button', class: 'ghost small danger', 'aria-label': `Remover o alerta ${a.number}` }, 'Remover');
      pause.addEventListener('click', () => void this.act(a, toggle[0]));
      remove.addEventListener('click', () => void this.act(a, 'remove'));
      return h(
        'li',
        { class: `alert-item ${a.status}`, 'data-alert-id': a.alert_id },
        h('span', { class: 'alert-text' }, `${a.number}. Avisar ${a.description} `, h('em', { class: 'alert-status' }, `(${STATUS[a.status]})`)),
        h('span', { class: 'alert-actions' }, pause, remove),
      );
    });
    this.element.replaceChildren(title, h('ul', { class: 'alert-list' }, ...items), this.status);
  }
}
