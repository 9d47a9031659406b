import { loadPolicy } from '@cota/config';
import { loadEntityClasses } from '@cota/catalog';
import { OntologySchema } from './ontology.schema';
import { withFieldWords } from './field-words';

const spec = loadPolicy('ontology', OntologySchema);
const classes = loadEntityClasses();

describe('withFieldWords', () => {
  it("adds a field's word no entity weighs to its entity, at the configured weight", () => {
    const out = withFieldWords(spec, { fiis_cadastro: { focus: [{ keywords: ['gestor', 'gerido'] }] } }, classes);
    expect(out.entities.fiis_cadastro.tokens.gerido).toBe(spec.field_words_weight);
    // A word the ontology already weighs keeps its weight.
    expect(out.entities.fiis_cadastro.tokens.gestor).toBe(spec.entities.fiis_cadastro.tokens.gestor);
  });

  it('leaves out phrases, words two templates focus on, and templates of no entity', () => {
    const out = withFieldWords(
      spec,
      {
        fiis_cadastro: { focus: [{ keywords: ['desde quando', 'palavranova'] }] },
        fiis_precos: { focus: [{ keywords: ['palavranova'] }] },
        not_an_entity: { focus: [{ keywords: ['outra'] }] },
        client_fiis_positions: { focus: [{ keywords: ['pesa'] }] },
      },
      classes,
    );
    // The client's overlapping views keep the ontology's words.
    expect(out.entities.client_fiis_positions.tokens['pesa']).toBeUndefined();
    expect(out.entities.fiis_cadastro.tokens['palavranova']).toBeUndefined();
    expect(out.entities.fiis_cadastro.phrases['desde quando']).toBe(spec.entities.fiis_cadastro.phrases['desde quando']);
    expect(Object.keys(out.entities)).toEqual(Object.keys(spec.entities));
  });
});
