import type { ExamplesObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * The HTTP contract's shapes and pt-BR examples for the OpenAPI document (docs/openapi.yaml). Each
 * request example carries `x-status`, the status the running gateway answers it with; the test
 * `test/gateway/openapi.int.spec.ts` sends every one of them and checks that status, and checks each
 * response example against its schema. Requests are made as `cliente-demo-1` (its key) unless an
 * example says otherwise with `x-auth` (`none`, `ops`).
 */

/** A value of `type` or null (OpenAPI 3.1's type list, which the decorators' 3.0 typings do not know). */
function orNull(type: string, description?: string): SchemaObject {
  return { type: [type, 'null'], ...(description ? { description } : {}) } as unknown as SchemaObject;
}

export const ErrorBody: SchemaObject = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'Código estável do erro (`invalid_body`, `unauthorized`, `forbidden`, `rate_limited`, ...).' },
        message: { type: 'string', description: 'Mensagem para a pessoa, em português; nunca traz pilha de execução nem SQL.' },
      },
    },
  },
};

export const AskRequest: SchemaObject = {
  type: 'object',
  description: 'Exatamente estes quatro campos, todos texto (o corpo nunca cresce).',
  required: ['question', 'conversation_id', 'nickname', 'client_id'],
  additionalProperties: false,
  properties: {
    question: { type: 'string', minLength: 1, description: 'A pergunta, em português.' },
    conversation_id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$', description: 'A conversa: o contexto vive por (client_id, conversation_id).' },
    nickname: { type: 'string', maxLength: 64, description: 'Como chamar a pessoa na resposta.' },
    client_id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$', description: 'O cliente da chave de API (outro é 403).' },
  },
};

export const AskResponse: SchemaObject = {
  type: 'object',
  required: ['status', 'results', 'meta', 'answer'],
  properties: {
    status: { type: 'string', enum: ['ok', 'needs_clarification', 'confirmation_required', 'error'] },
    results: { type: 'object', description: 'As linhas em que a resposta se baseia, por entidade do catálogo, ou o resultado da ferramenta.' },
    answer: { type: 'string', description: 'O texto para a pessoa (pt-BR, R$ e % no formato brasileiro).' },
    meta: {
      type: 'object',
      required: ['request_id', 'intent', 'entity', 'params', 'context', 'planner', 'rag', 'narrator', 'timings_ms'],
      properties: {
        request_id: { type: 'string' },
        intent: orNull('string'),
        entity: orNull('string', 'Um nome do catálogo de entidades, ou null.'),
        params: {
          type: 'object',
          required: ['ticker', 'tickers', 'agg', 'window', 'limit', 'order'],
          properties: {
            ticker: orNull('string'),
            tickers: { type: 'array', items: { type: 'string' } },
            agg: orNull('string'),
            window: orNull('string'),
            limit: orNull('integer'),
            order: orNull('string'),
          },
        },
        context: {
          type: 'object',
          required: ['last_reference_used', 'reason'],
          properties: { last_reference_used: { type: 'boolean' }, reason: { type: 'string' } },
        },
        planner: {
          type: 'object',
          required: ['score', 'gap', 'candidates', 'accepted'],
          properties: { score: { type: 'number' }, gap: { type: 'number' }, candidates: { type: 'array', items: { type: 'object' } }, accepted: { type: 'boolean' } },
        },
        tool: {
          type: 'object',
          description: 'Quando uma ferramenta rodou ou aguarda confirmação.',
          required: ['name', 'args', 'injected', 'status'],
          properties: {
            name: { type: 'string' },
            args: { type: 'object' },
            injected: {
              type: 'array',
              items: { type: 'object', required: ['arg', 'value', 'source'], properties: { arg: { type: 'string' }, value: {}, source: { type: 'string' } } },
            },
            status: { type: 'string' },
          },
        },
        rag: { type: 'object', description: 'O que foi recuperado da base de conhecimento, ou por que não.' },
        narrator: { type: 'object', description: 'Se um LLM redigiu a resposta, e por quê.' },
        timings_ms: { type: 'object', additionalProperties: { type: 'number' } },
      },
    },
  },
};

export const ASK_OK = {
  status: 'ok',
  results: {
    fiis_cadastro: [
      {
        ticker: 'HGLG11',
        fii_cnpj: '11.728.688/0001-47',
        display_name: 'Pátria Log Fundo Investimento Imobiliário Responsabilidade Ltda',
        classification: 'Tijolo',
        sector: 'Logística',
        admin_name: 'Banco Genial S.A.',
        as_of_date: '2025-11-22',
      },
    ],
  },
  answer:
    'Ana, o CNPJ do HGLG11 (Pátria Log Fundo Investimento Imobiliário Responsabilidade Ltda) é 11.728.688/0001-47.\n\nFonte: CVM/B3 (via base araquem), dados até 22/11/2025.',
  meta: {
    request_id: 'bf181ab5-12ee-4815-8585-4f12e77d9f02',
    intent: 'fiis_cadastro',
    entity: 'fiis_cadastro',
    params: { ticker: 'HGLG11', tickers: ['HGLG11'], agg: 'latest', window: null, limit: 50, order: 'asc' },
    context: { last_reference_used: false, reason: 'explicit_ticker_in_text' },
    planner: { score: 7, gap: 7, accepted: true, candidates: [{ entity: 'fiis_cadastro', score: 7, signals: ['word:cnpj(+6)', 'feature:ticker(+1)'] }] },
    rag: { enabled: false, reason: 'intent_denied', used_collections: [], chunks: [] },
    narrator: { llm_used: false, reason: 'llm_not_configured', model: null },
    timings_ms: { open: 12.4, plan: 8.1, act: 20.3, narrate: 2.2, commit: 6.5, total: 49.5 },
  },
};

const err = (code: string, message: string) => ({ value: { error: { code, message } } });

export const ASK_REQUEST_EXAMPLES: ExamplesObject = {
  pergunta: {
    summary: 'Uma pergunta sobre um fundo',
    value: { question: 'Qual o CNPJ do HGLG11?', conversation_id: 'docs-1', nickname: 'Ana', client_id: 'cliente-demo-1' },
    'x-status': 200,
  } as ExamplesObject[string],
  seguimento: {
    summary: 'Um seguimento que herda o fundo da conversa',
    value: { question: 'E o dividend yield dele?', conversation_id: 'docs-1', nickname: 'Ana', client_id: 'cliente-demo-1' },
    'x-status': 200,
  } as ExamplesObject[string],
  campo_a_mais: {
    summary: 'Campo fora do contrato (400, nomeia o campo)',
    value: { question: 'Qual o CNPJ do HGLG11?', conversation_id: 'docs-1', nickname: 'Ana', client_id: 'cliente-demo-1', ticker: 'HGLG11' },
    'x-status': 400,
  } as ExamplesObject[string],
  sem_chave: {
    summary: 'Sem o cabeçalho Authorization (401)',
    value: { question: 'Qual o CNPJ do HGLG11?', conversation_id: 'docs-1', nickname: 'Ana', client_id: 'cliente-demo-1' },
    'x-status': 401,
    'x-auth': 'none',
  } as ExamplesObject[string],
  outro_cliente: {
    summary: 'client_id de outro cliente que não o da chave (403)',
    value: { question: 'Qual o CNPJ do HGLG11?', conversation_id: 'docs-1', nickname: 'Ana', client_id: 'cliente-demo-2' },
    'x-status': 403,
  } as ExamplesObject[string],
};

export const ASK_OK_EXAMPLES: ExamplesObject = { resposta: { summary: 'Resposta com as linhas em que se baseia', value: ASK_OK } };

/** Error responses of /ask (CONTRACT "Errors"), with the gateway's own messages. */
export const ASK_ERRORS: Record<number, { description: string; examples: ExamplesObject }> = {
  400: {
    description: 'Corpo inválido: a mensagem nomeia o campo.',
    examples: { campo: err('invalid_body', "Campo 'ticker' não é aceito: o corpo tem apenas question, conversation_id, nickname e client_id.") },
  },
  401: { description: 'Chave de API ausente ou desconhecida.', examples: { sem_chave: err('unauthorized', "Envie a chave de API no cabeçalho 'Authorization: Bearer <chave>'.") } },
  403: {
    description: 'O `client_id` não é o cliente da chave.',
    examples: { outro_cliente: err('forbidden', "O 'client_id' enviado não corresponde ao cliente da chave de API.") },
  },
  413: { description: 'Corpo grande demais.', examples: { grande: err('payload_too_large', 'O corpo da requisição passa do limite de 16 KB.') } },
  429: {
    description: 'Cota ou limite de taxa do cliente (com `Retry-After`).',
    examples: { limite: err('rate_limited', 'Muitas perguntas em pouco tempo. Aguarde um instante e tente de novo.') },
  },
  503: {
    description: 'Um serviço necessário está fora do ar ou sobrecarregado (com `Retry-After`).',
    examples: { fora: err('service_unavailable', 'O serviço de planejamento está indisponível no momento. Tente novamente em instantes.') },
  },
  504: { description: 'Uma etapa passou do prazo da pergunta.', examples: { prazo: err('timeout', 'A pergunta passou do prazo de resposta. Tente novamente.') } },
};

export const HistoryResponse: SchemaObject = {
  type: 'object',
  required: ['conversation_id', 'turns'],
  properties: {
    conversation_id: { type: 'string' },
    turns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['role', 'content', 'created_at'],
        properties: {
          role: { type: 'string', enum: ['user', 'assistant'] },
          content: { type: 'string' },
          created_at: { type: 'string', format: 'date-time' },
          meta: { type: 'object' },
        },
      },
    },
  },
};

export const HISTORY_EXAMPLE = {
  conversation_id: 'docs-1',
  turns: [
    { role: 'user', content: 'Qual o CNPJ do HGLG11?', created_at: '2026-11-27T21:36:09.649Z', meta: { request_id: 'ffd02b57-8cce-49ee-8952-dc47c069d270', turn_index: 1 } },
    {
      role: 'assistant',
      content: 'Ana, o CNPJ do HGLG11 (Pátria Log Fundo Investimento Imobiliário Responsabilidade Ltda) é 11.728.688/0001-47.',
      created_at: '2026-11-27T21:36:10.321Z',
      meta: { entity: 'fiis_cadastro', status: 'ok', turn_index: 1 },
    },
  ],
};

export const ErasureReceipt: SchemaObject = {
  type: 'object',
  required: ['receipt_id', 'client_id', 'requested_by', 'erased_at', 'erased', 'total', 'message'],
  properties: {
    receipt_id: { type: 'string' },
    client_id: { type: 'string' },
    requested_by: { type: 'string', enum: ['client', 'ops'] },
    erased_at: { type: 'string', format: 'date-time' },
    erased: {
      type: 'array',
      items: {
        type: 'object',
        required: ['service', 'store', 'backend', 'count'],
        properties: { service: { type: 'string' }, store: { type: 'string' }, backend: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
      },
    },
    total: { type: 'integer', minimum: 0 },
    message: { type: 'string' },
  },
};

export const RECEIPT_EXAMPLE = {
  receipt_id: 'erasure_429016c7-0f30-4ddd-85c6-399a1f269115',
  client_id: 'cliente-demo-3',
  requested_by: 'client',
  erased_at: '2026-11-27T21:41:45.447Z',
  erased: [
    { service: 'context', store: 'conversation_turns', backend: 'postgres', count: 12 },
    { service: 'executor', store: 'wh_clients', backend: 'postgres', count: 1 },
    { service: 'gateway', store: 'api_keys', backend: 'postgres', count: 1 },
  ],
  total: 14,
  message: 'Apagamos todos os dados que o Cota guardava sobre este cliente (14 registros).',
};

export const Readiness: SchemaObject = {
  type: 'object',
  required: ['status', 'mode', 'checks', 'services'],
  properties: {
    status: { type: 'string', enum: ['ready', 'starting', 'not_ready'] },
    mode: { type: 'string', enum: ['embedded', 'distributed'] },
    checks: {
      type: 'object',
      description: 'NATS, Postgres e Redis deste gateway.',
      additionalProperties: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } },
    },
    services: {
      type: 'object',
      description: 'A saúde que cada um dos outros serviços informou.',
      additionalProperties: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } },
    },
  },
};

export const READY_EXAMPLE = {
  status: 'ready',
  mode: 'distributed',
  checks: { nats: { ok: true }, postgres: { ok: true }, redis: { ok: true } },
  services: { planner: { ok: true }, context: { ok: true }, 'tool-gate': { ok: true }, executor: { ok: true }, rag: { ok: true }, narrator: { ok: true } },
};

export const NOT_READY_EXAMPLE = {
  status: 'not_ready',
  mode: 'distributed',
  checks: { nats: { ok: true }, postgres: { ok: false, detail: 'connection refused' }, redis: { ok: true } },
  services: {
    planner: { ok: true },
    context: { ok: false, detail: 'no service is answering' },
    'tool-gate': { ok: true },
    executor: { ok: true },
    rag: { ok: true },
    narrator: { ok: true },
  },
};

export const OPS_ERRORS: Record<number, { description: string; examples: ExamplesObject }> = {
  400: { description: 'Parâmetro ausente ou inválido (nomeado).', examples: { parametro: err('invalid_param', "Parâmetro 'client_id' é obrigatório.") } },
  401: { description: 'Sem o token de operação.', examples: { sem_token: err('unauthorized', "Envie o token de operação no cabeçalho 'Authorization: Bearer <token>'.") } },
  403: { description: 'Token inválido, ou COTA_OPS_TOKEN não definido (endpoints fechados).', examples: { token: err('forbidden', 'Token de operação inválido.') } },
};
