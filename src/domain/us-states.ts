// Two-letter codes of the US states, DC and the territories (docs/conventions.md).
export const US_STATE_CODES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
    'DC AS GU MP PR VI UM'
  ).split(' '),
);
