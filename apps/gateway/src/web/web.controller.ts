import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { createLogger } from '@cota/service-kit';
import { renderChatPage } from '../chat-page';
import { HttpError } from '../http/http-error';
import { applyFallbackPageHeaders, webAppSecurityHeaders } from '../http/security-headers';
import { DemoSession } from './demo-session';
import { ASSET_NAME, WebAsset, WebAssets } from './web-assets';

export const WEB_ASSETS = Symbol('WEB_ASSETS');

const log = createLogger('gateway');

/**
 * The chat page: the app built by apps/web (index.html + /assets/*, all from this origin, CSP
 * `script-src 'self'`), and the embedded mode's demo login. When the page was not built (a bare
 * `tsc`), `/` falls back to the single-file page of chat-page.ts under its nonce CSP.
 */
@ApiTags('página')
@Controller()
export class WebController {
  constructor(
    @Inject(WEB_ASSETS) private readonly web: WebAssets | null,
    private readonly demo: DemoSession,
  ) {
    if (!web) log.warn('chat page not built (dist/apps/web missing): serving the fallback page; run `npm run build`');
  }

  @Get()
  @ApiOperation({ summary: 'A página de conversa' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'A página.', content: { 'text/html': { schema: { type: 'string' } } } })
  page(@Req() req: Request, @Res() res: Response): void {
    if (!this.web) {
      const nonce = applyFallbackPageHeaders(req, res);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.send(renderChatPage(nonce));
      return;
    }
    webAppSecurityHeaders(req, res, () => undefined);
    // Revalidated every time: the page names its assets without a hash.
    this.send(req, res, this.web.index, 'no-cache');
  }

  @Get('assets/:file')
  @ApiOperation({ summary: 'Um arquivo da página (script, estilo, ícone)' })
  @ApiResponse({ status: 200, description: 'O arquivo.' })
  @ApiResponse({ status: 404, description: 'Arquivo desconhecido.' })
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const found = this.web && ASSET_NAME.test(file) ? this.web.assets.get(file) : undefined;
    if (!found) throw new HttpError(404, 'not_found', 'Rota não encontrada.');
    this.send(req, res, found, 'no-cache');
  }

  /** Whether the page may offer "entrar como cliente de demonstração" (embedded mode, a caller on this machine). */
  @Get('demo/session')
  @ApiOperation({ summary: 'Se a página pode oferecer a entrada de demonstração', description: 'Só no modo embutido, para quem chama desta máquina; 404 nos outros casos.' })
  @ApiResponse({ status: 200, description: 'Disponível.', content: { 'application/json': { example: { available: true, client_id: 'cliente-demo-1' } } } })
  @ApiResponse({ status: 404, description: 'Indisponível (modo distribuído ou chamada de outra máquina).' })
  demoInfo(@Req() req: Request, @Res({ passthrough: true }) res: Response): { available: true; client_id: string } {
    if (!this.demo.availableTo(req.socket.remoteAddress)) throw demoOff();
    res.setHeader('cache-control', 'no-store');
    return { available: true, client_id: this.demo.clientId };
  }

  /** The demo login: an API key of the demo client (embedded mode, a caller on this machine; 404 otherwise). */
  @Post('demo/session')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Entrada de demonstração: uma chave de API do cliente de demonstração',
    description: 'Só no modo embutido, para quem chama desta máquina; 404 nos outros casos.',
  })
  @ApiResponse({ status: 200, description: 'A chave.', content: { 'application/json': { example: { client_id: 'cliente-demo-1', key: 'cota_demo_…' } } } })
  @ApiResponse({ status: 404, description: 'Indisponível.' })
  async demoLogin(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ client_id: string; key: string }> {
    const creds = await this.demo.issue(req.socket.remoteAddress);
    if (!creds) throw demoOff();
    res.setHeader('cache-control', 'no-store');
    return creds;
  }

  private send(req: Request, res: Response, file: WebAsset, cacheControl: string): void {
    res.setHeader('content-type', file.contentType);
    res.setHeader('cache-control', cacheControl);
    res.setHeader('etag', file.etag);
    if (req.headers['if-none-match'] === file.etag) {
      res.status(304).end();
      return;
    }
    res.status(200).end(file.body);
  }
}

function demoOff(): HttpError {
  return new HttpError(
    404,
    'not_found',
    'O login de demonstração só existe no modo embutido (npm start sem NATS_URL, DATABASE_URL e REDIS_URL) e só para quem acessa da própria máquina.',
  );
}
