/**
 * B3 statements dropped into the conversation (or picked with the "Enviar extrato" button): the
 * file goes to `POST /me/imports` with the conversation's id, so the preview's "sim" in this
 * conversation confirms it through the tool gate like any other sensitive action.
 */
import { Session } from '../lib/session';
import { ApiError } from './api';
import { h } from './dom';

/** What the gateway answers an upload with (201, or 200 when the file was already imported). */
export interface UploadReply {
  import_id: string;
  status: 'confirmation_required' | 'already_imported' | string;
  file_name: string;
  preview: string;
  message: string | null;
}

const ACCEPTED = /\.(xlsx|csv)$/i;

export async function uploadStatement(s: Session, file: File): Promise<UploadReply> {
  if (!ACCEPTED.test(file.name)) throw new ApiError(400, 'Envie o extrato da B3 em .xlsx ou .csv (Negociação ou Movimentação).');
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('conversation_id', s.conversationId);
  const res = await fetch('/me/imports', { method: 'POST', headers: { authorization: `Bearer ${s.key}` }, body: form });
  const body = (await res.json().catch(() => ({}))) as UploadReply & { error?: { message?: string; code?: string } };
  if (!res.ok) throw new ApiError(res.status, body.error?.message ?? `Erro ${res.status}.`, body.error?.code);
  return body;
}

/**
 * Makes `zone` accept a dropped file (highlighted while a file is dragged over it) and adds a
 * button with a file picker to `toolbar`; each chosen file goes to `onFile`.
 */
export function attachStatementDrop(zone: HTMLElement, toolbar: HTMLElement, onFile: (file: File) => void): void {
  const input = h('input', { type: 'file', accept: '.xlsx,.csv', hidden: true, id: 'statement-file', 'aria-label': 'Extrato da B3 (.xlsx ou .csv)' });
  const button = h(
    'button',
    { type: 'button', class: 'ghost', id: 'statement-button', title: 'Importar o extrato de Negociação ou Movimentação da B3 (.xlsx ou .csv)' },
    'Enviar extrato',
  );
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) onFile(file);
  });
  toolbar.prepend(button, input);
  const hasFile = (ev: DragEvent) => Array.from(ev.dataTransfer?.types ?? []).includes('Files');
  zone.addEventListener('dragover', (ev) => {
    if (!hasFile(ev)) return;
    ev.preventDefault();
    zone.classList.add('dropping');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dropping'));
  zone.addEventListener('drop', (ev) => {
    if (!hasFile(ev)) return;
    ev.preventDefault();
    zone.classList.remove('dropping');
    const file = ev.dataTransfer?.files?.[0];
    if (file) onFile(file);
  });
}
