"""The translation catalogs: LANG/DOMAIN.po (game/words/i18n.py reads them; game/words/catalogs.py writes them)."""
