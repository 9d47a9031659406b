import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_HEADER_LINES } from './security-headers';

/**
 * Requests Node's HTTP parser refuses before any route sees them (a control byte in a header,
 * conflicting Content-Length, a garbled request line, headers past the size limit) still get the
 * contract's JSON error and the security headers, instead of a bare status line.
 */
export function answerClientErrorsAsJson(server: Pick<Server, 'on'>): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, code, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'Os cabeçalhos da requisição passam do limite de tamanho.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'request_timeout', 'A requisição demorou demais para chegar.']
          : [400, 'Bad Request', 'bad_request', 'Requisição HTTP malformada.'];
    const body = JSON.stringify({ error: { code, message } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        API_HEADER_LINES +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
