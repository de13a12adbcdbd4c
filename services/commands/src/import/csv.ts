/**
 * RFC 4180 CSV: fields separated by commas, a field in double quotes may hold commas, line breaks
 * and `""` (a quote). Lines end with LF or CRLF. Returns the records, blank lines left out.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let inQuotes = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inQuotes) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') inQuotes = false;
      else field += char;
    } else if (char === '"' && field === '') inQuotes = true;
    else if (char === ',') endField();
    else if (char === '\n') endRecord();
    else if (char !== '\r') field += char;
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
