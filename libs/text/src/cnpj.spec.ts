import { cnpjIn } from './cnpj';

describe('cnpjIn', () => {
  it('finds a CNPJ masked or as 14 digits, never inside a longer number', () => {
    expect(cnpjIn('de qual fii é o cnpj 12.005.956/0001-65 ?')).toEqual({ written: '12.005.956/0001-65', digits: '12005956000165' });
    expect(cnpjIn('cnpj 12005956000165')).toEqual({ written: '12005956000165', digits: '12005956000165' });
    expect(cnpjIn('conta 9912005956000165')).toBeNull();
    expect(cnpjIn('dy de 9,5% em 2024')).toBeNull();
  });
});
