var books = data.doc.getElementsByTagName('book');
var out = [books.length, books[0].getAttribute('title'), books[0].textContent, data.doc.documentElement.childNodes.length];
for (var n = data.doc.documentElement.firstChild; n !== null; n = n.nextSibling || null) { out.push(n.nodeName); break; }
out.push(String(books[0]), books[1].hasChildNodes(), data.doc.getElementsByTagName('*').length, books[0].parentNode.tagName);
out
