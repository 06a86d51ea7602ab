var s = 'price: $10, €20, $300'; data.a = s.match(/(?<=\$)\d+/g); data.b = s.replace(/(?<!\$)\b(\d+)/g, '<$1>'); data.c = /(?<=(\d+)(\d+))$/.exec('1053'); if (s) /(?<=\1(a))b/.test('aab') ? data.d = 1 : data.d = 2; function f() {}
/'(?<=a)'/.test("'") ? data.e = 3 : data.e = 4
