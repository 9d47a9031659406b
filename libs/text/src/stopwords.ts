/** Function words of Brazilian Portuguese (normalised form), ignored when only content matters. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a o as os um uma uns umas de do da dos das d no na nos nas em num numa ao aos a as pelo pela pelos pelas por ' +
    'para e ou mas que se com sem sobre entre ate desde apos isso isto esse essa esses essas este esta estes estas ' +
    'aquele aquela aquilo ele ela eles elas me mim te ti voce voces lhe nos vos meu minha meus minhas seu sua seus suas ' +
    'teu tua dele dela deles delas ja ai la aqui ali entao tambem muito muita pouco mais menos bem tao so ' +
    'e foi ser sao era sera estar estao esta estou tem ter tenho temos por favor favor qual quais quem como onde ' +
    'quando quanto quanta quantos quantas porque pois hein ne tipo assim agora'
  ).split(' '),
);

export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}
