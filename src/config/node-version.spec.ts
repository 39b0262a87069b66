import { nodeTooOld } from './node-version';

describe('the Node version check of the entry points', () => {
  it('stops Node 20 and older, saying how to run on the Node 24 npm brought', () => {
    expect(nodeTooOld('v20.20.2')).toMatch(/Node v20\.20\.2.*npm start/);
    expect(nodeTooOld('v18.0.0')).toBeDefined();
  });

  it('lets Node 22 and later through', () => {
    expect(nodeTooOld('v22.12.0')).toBeUndefined();
    expect(nodeTooOld('v24.21.0')).toBeUndefined();
  });
});
