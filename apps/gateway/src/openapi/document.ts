import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { stringify } from 'yaml';
import { repoRoot } from '@cota/config';
import { docsSecurityHeaders } from '../http/security-headers';

/** Security scheme names, used by the controllers' decorators. */
export const CLIENT_KEY = 'chave_de_api';
export const OPS_TOKEN = 'token_de_operacao';

/**
 * The HTTP API as OpenAPI 3.1, generated from the gateway's controllers and their decorators
 * (committed as docs/openapi.yaml; a test keeps the two equal and sends every example to a gateway).
 */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cota: API HTTP do gateway')
    .setDescription(
      'Perguntas em português sobre fundos imobiliários (FIIs), o mercado e a carteira do próprio cliente. ' +
        'Todo erro é JSON `{error: {code, message}}`, sem pilha de execução nem SQL.',
    )
    .setVersion(packageVersion())
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A chave de API de um cliente.' }, CLIENT_KEY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'O token de operação (COTA_OPS_TOKEN).' }, OPS_TOKEN)
    .build();
  return SwaggerModule.createDocument(app, config);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The document as committed in docs/openapi.yaml. */
export function openApiYaml(doc: OpenAPIObject): string {
  return stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** Serves Swagger UI at `/docs`, the document at `/docs/json` and `/docs/yaml`. */
export function serveOpenApi(app: INestApplication): void {
  const doc = openApiDocument(app);
  app.use('/docs', docsSecurityHeaders);
  SwaggerModule.setup('docs', app, doc, { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml', customSiteTitle: 'Cota: API HTTP' });
}
