import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CLIENT_KEY } from './openapi/document';
import type { Request, Response } from 'express';
import multer from 'multer';
import { ExecutorSubjects, MAX_STATEMENT_BYTES, ResponseOf, ToolGateSubjects } from '@cota/contracts';
import { INFRA, Infra } from '@cota/service-kit';
import { ClientGate } from './http/client-gate';
import { HttpError, toHttpError } from './http/http-error';
import { requestIdOf } from './http/request-id';

const IMPORTS_PATH = '/me/imports';
const CONVERSATION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;
const IMPORT_ID = /^imp_[a-f0-9]{24}$/;
const TOOL = 'importar_extrato';

/** The upload is multipart: the gateway's JSON body reader leaves this one route to multer. */
export function isStatementUpload(req: Request): boolean {
  return req.method === 'POST' && (req.originalUrl ?? req.url).split('?')[0] === IMPORTS_PATH;
}

const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_STATEMENT_BYTES, files: 1, fields: 4, fieldSize: 256, parts: 6 } }).single('file');

/** Reads the multipart body (one `file`, optional `conversation_id`), mapping multer's refusals to the contract's errors. */
function readUpload(req: Request, res: Response): Promise<{ file: Express.Multer.File | undefined; fields: Record<string, unknown> }> {
  if (!/^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''))) {
    return Promise.reject(new HttpError(400, 'invalid_body', "Envie o extrato como 'multipart/form-data', no campo 'file'."));
  }
  return new Promise((resolve, reject) =>
    upload(req, res, (err: unknown) => {
      if (!err) return resolve({ file: req.file, fields: (req.body ?? {}) as Record<string, unknown> });
      const code = (err as { code?: string }).code;
      if (code === 'LIMIT_FILE_SIZE') return reject(new HttpError(413, 'payload_too_large', `O arquivo passa do limite de ${MAX_STATEMENT_BYTES / 1024} KB.`));
      if (code === 'LIMIT_UNEXPECTED_FILE') return reject(new HttpError(400, 'invalid_body', "Envie um único arquivo, no campo 'file'."));
      return reject(new HttpError(400, 'invalid_body', 'Não consegui ler o envio do arquivo (multipart inválido).'));
    }),
  );
}

/**
 * `POST /me/imports` (a B3 statement, multipart field `file`): the executor reads and checks it and
 * keeps what it would add; the tool gate stores the pending import and answers its preview, so
 * "sim" in the conversation (or `POST /me/imports/:id/confirm`) writes it. Scoped to the key's client.
 */
@ApiTags('carteira')
@ApiBearerAuth(CLIENT_KEY)
@Controller()
export class ImportsController {
  constructor(
    @Inject(INFRA) private readonly infra: Infra,
    // The key, the erasure fence and the request budget /ask has: a client being erased uploads nothing.
    private readonly gate: ClientGate,
  ) {}

  @ApiOperation({ summary: 'Envia um extrato da B3 (Negociação ou Movimentação, .xlsx ou .csv, até 512 KB) no campo multipart `file`: volta a prévia, que o cliente confirma.' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } })
  @ApiResponse({ status: 201, description: 'A prévia da importação, aguardando confirmação.' })
  @ApiResponse({ status: 400, description: 'Arquivo ausente, grande demais ou com linhas inválidas (por linha e motivo; nada é gravado).' })
  @Post('me/imports')
  @HttpCode(201)
  create(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.gate.run(req, (clientId) => this.stage(req, res, clientId));
  }

  private async stage(req: Request, res: Response, clientId: string): Promise<unknown> {
    const { file, fields } = await readUpload(req, res);
    if (!file || !file.size) throw new HttpError(400, 'invalid_body', "Envie o arquivo do extrato no campo 'file'.");
    const conversation = typeof fields.conversation_id === 'string' && fields.conversation_id ? fields.conversation_id : null;
    if (conversation !== null && !CONVERSATION_ID.test(conversation))
      throw new HttpError(400, 'invalid_param', "Campo 'conversation_id' inválido: use de 1 a 128 caracteres (letras, números, _ . : @ -).");
    const requestId = requestIdOf(req);
    const staged = await this.infra.bus.call(ExecutorSubjects.stageImport, {
      request_id: requestId,
      client_id: clientId,
      conversation_id: conversation,
      file_name: (file.originalname || 'extrato').slice(0, 255),
      content_base64: file.buffer.toString('base64'),
    });
    if (!staged.import) throw new HttpError(422, 'invalid_statement', staged.message);
    const view = staged.import;
    if (view.status === 'confirmed') {
      res.status(200);
      return { import_id: view.import_id, status: 'already_imported', file_name: view.file_name, summary: view.summary, preview: view.preview, message: view.preview };
    }
    const gate = await this.ask(requestId, clientId, conversation ?? importConversation(view.import_id), view.import_id);
    return {
      import_id: view.import_id,
      status: gate.status,
      file_name: view.file_name,
      summary: view.summary,
      preview: view.preview,
      message: gate.message,
      conversation_id: conversation,
    };
  }

  /** Confirms through the tool gate, in the import's own conversation, so no other pending action can be confirmed by it. */
  @ApiOperation({ summary: 'Confirma uma importação em prévia (pela confirmação do tool gate).' })
  @ApiResponse({ status: 200, description: 'Importada: o que entrou no livro de operações.' })
  @Post('me/imports/:import_id/confirm')
  @HttpCode(200)
  confirm(@Req() req: Request, @Param('import_id') importId: string): Promise<unknown> {
    return this.gate.run(req, (clientId) => this.confirmed(req, clientId, importId));
  }

  private async confirmed(req: Request, clientId: string, importId: string): Promise<unknown> {
    if (!IMPORT_ID.test(importId)) throw new HttpError(404, 'not_found', 'Importação não encontrada.');
    const requestId = requestIdOf(req);
    const { import: view } = await this.infra.bus.call(ExecutorSubjects.getImport, { client_id: clientId, import_id: importId });
    if (!view) throw new HttpError(404, 'not_found', 'Importação não encontrada entre as suas. Envie o arquivo de novo.');
    if (view.status === 'confirmed') return { import_id: importId, status: 'already_imported', added: 0, message: view.preview };
    const conversation = importConversation(importId);
    const asked = await this.ask(requestId, clientId, conversation, importId);
    if (asked.status !== 'confirmation_required') throw new HttpError(422, 'invalid_statement', asked.message ?? 'Não foi possível importar o arquivo.');
    const done = await this.infra.bus.call(ToolGateSubjects.invoke, {
      request_id: `${requestId}-yes`,
      client_id: clientId,
      conversation_id: conversation,
      tool: null,
      confirmation: 'yes',
    });
    if (done.status !== 'ok') throw new HttpError(422, 'invalid_statement', done.message ?? 'Não foi possível importar o arquivo.');
    const result = (done.result ?? {}) as { adicionados?: number; posicoes?: unknown; text?: string };
    return { import_id: importId, status: 'confirmed', added: result.adicionados ?? 0, positions: result.posicoes ?? [], message: result.text ?? null };
  }

  /** `GET /me/reports/ir/:year.csv`: the yearly income-tax report of the key's client, as a CSV download. */
  @ApiOperation({ summary: 'O relatório anual para o imposto de renda em CSV (me/reports/ir/<ano>.csv).' })
  @ApiResponse({ status: 200, description: 'O CSV.' })
  @Get('me/reports/ir/:file')
  taxReport(@Req() req: Request, @Param('file') file: string, @Res() res: Response): Promise<void> {
    return this.gate.run(req, (clientId) => this.csv(res, clientId, file));
  }

  private async csv(res: Response, clientId: string, file: string): Promise<void> {
    const m = /^(\d{4})\.csv$/.exec(file);
    if (!m) throw new HttpError(404, 'not_found', 'Relatório não encontrado: use /me/reports/ir/<ano>.csv (ex.: 2025.csv).');
    try {
      const report = await this.infra.bus.call(ExecutorSubjects.taxReport, { client_id: clientId, year: Number(m[1]) });
      res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${report.file_name}"`, 'Cache-Control': 'no-store' });
      // A byte-order mark so spreadsheet programs read the accents as UTF-8.
      res.send(`\uFEFF${report.csv}`);
    } catch (e) {
      const err = toHttpError(e);
      throw err.status === 400 && /year/.test(err.message) ? new HttpError(404, 'not_found', 'Ano inválido para o relatório.') : err;
    }
  }

  private ask(requestId: string, clientId: string, conversation: string, importId: string): Promise<ResponseOf<typeof ToolGateSubjects.invoke>> {
    return this.infra.bus.call(ToolGateSubjects.invoke, {
      request_id: requestId,
      client_id: clientId,
      conversation_id: conversation,
      tool: { name: TOOL, args: { import_id: importId } },
      confirmation: null,
    });
  }
}

/** The conversation an import waits in when it did not come from one (HTTP uploads, the confirm endpoint). */
export function importConversation(importId: string): string {
  return `importacao:${importId}`;
}
