"""The password field of a Wi-Fi QR payload (``WIFI:…;P:…;;``) and of a ``.pgpass`` line, beside
the formats read already (URIs with a password, ``otpauth://…secret=``, connection strings,
``.netrc``), in the seven languages (issue 29, blind14).

First run on main (c1ed6f2): 22/31 caught (2/9 Wi-Fi payloads, only where the password's shape
alone was read in a language the floor took for uncovered; 1/3 ``.pgpass`` lines), 0/17 benign
flagged.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify

FIELDS = [
    "WLAN-QR abfotografiert: WIFI:T:WPA;S:HomeNet 5G;P:71930284655019283377;;",
    "scanned the guest wifi QR: WIFI:S:CafeGuest;T:WPA;P:espresso4life;;",
    "WIFI:T:WPA2;S:Oficina-2;P:Lm9!qTz27x;H:false;;",
    "el QR del wifi dice WIFI:T:WPA;S:Casa Ruiz;P:girasol1987;;",
    "le QR code du wifi : WIFI:T:WPA;S:Livebox-7A21;P:q4K9mZ2rT8vL;;",
    "o QR do wifi: WIFI:S:Apto 302;T:WPA;P:maracuja2020;;",
    "客厅的WiFi二维码内容是 WIFI:T:WPA;S:TP-LINK_8A3F;P:hongkong8888;;",
    "WiFiのQR：WIFI:T:WPA;S:aterm-7f3c21;P:4d9e1a7b2c0f5;;",
    "otpauth://totp/GitHub:me@example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub",
    "my 2FA QR decoded to otpauth://totp/AWS:ana?secret=KRSXG5CTMVRXEZLU&issuer=AWS",
    "la URI del 2FA es otpauth://totp/Binance:pablo?secret=GEZDGNBVGY3TQOJQ&issuer=Binance",
    "mysql://admin:Tr0ub4dor3@db.internal:3306/shop",
    "conecta con postgres://app_user:Zq8!mPw2r@10.0.0.7:5432/orders",
    "smb://marta:Girasol2024@nas.local/fotos",
    "ftp://deploy:k7Lp9Qr2@ftp.example.org/public_html",
    "mongodb+srv://root:Xv92LmQp7t@cluster0.ab1cd.mongodb.net/test",
    "redis://:S3cr3tRedisPw@cache.internal:6379/0",
    "amqp://guest:R4bb1tPass!@mq.local:5672/",
    "db.internal:5432:orders:app:Vm4#pLq9zX2 is my .pgpass line",
    "~/.pgpass: localhost:5432:*:postgres:Kaff33Tass3",
    "meine .pgpass: 10.0.0.5:5432:shop:shop_user:Lindenbaum77",
    "machine api.heroku.com login me@x.com password 7b2f4e1c-91aa-4d3e-b8c2-5f0e6a7d9c13",
    ".netrc: machine github.com login octo password ghp_9xY2mQ7rL4vT8kP1sD6fH3jW0aZ5bN2cE",
    "jdbc:mysql://db:3306/app?user=root&password=Tapioca#55",
    "Server=db;Database=app;User Id=sa;Password=Quokka!2023;",
    "la cadena de conexión: Host=pg;Username=ventas;Password=Churro_77;Database=ventas",
    "WIFI:T:WEP;S:Werkstatt;P:1A2B3C4D5E;;",
    "rtsp://admin:Camara2023@192.168.1.64:554/stream1",
    "sftp://backup:N0rdlicht!@files.example.de/backup",
    "git clone https://oauth2:glpat-7xQm2Lp9vR4tK8sN1wYz@gitlab.com/team/app.git",
]

BENIGN = [
    "the QR format is WIFI:T:WPA;S:<ssid>;P:<password>;;",
    "WIFI:T:WPA;S:MyNetwork;P:;; — leave P empty for an open network?",
    "WIFI:T:nopass;S:FreeCafe;;",
    "otpauth://totp/Example:alice@google.com?secret=<base32-secret>&issuer=Example",
    "mysql://user:password@localhost:3306/db is the format, right?",
    "postgres://username:password@host:5432/database",
    "postgresql://localhost:5432/orders",
    "smb://nas.local/fotos is the share",
    "ftp://ftp.example.org/pub/README",
    "redis://cache.internal:6379/0",
    "la URL es mongodb://localhost:27017",
    "hostname:port:database:username:password is the .pgpass format",
    "Server=db;Database=app;Trusted_Connection=True;",
    "jdbc:mysql://db:3306/app?useSSL=false&serverTimezone=UTC",
    "machine api.heroku.com login me@x.com password <token>",
    "rtsp://192.168.1.64:554/stream1",
    "the meeting is at 10:30:00:00 UTC? no, 10:30",
]


@pytest.mark.parametrize("text", FIELDS)
def test_password_field_is_secret(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize("text", BENIGN)
def test_benign_twin_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
