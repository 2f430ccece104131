"""QR codes at the workstation (docs/documents.md): a label per item of the map, its name, its context and
a QR code of its page's address, alone or as an A4 sheet per cartography."""
