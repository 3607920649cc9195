"""The translation catalogs: LANG/DOMAIN.po (game/i18n.py reads them; scripts/catalogs.py writes them)."""
