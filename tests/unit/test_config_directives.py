"""Password directives of common server configs pasted in chat (issue 29): redis's
``requirepass``/``masterauth``, keepalived's ``auth_pass``, OpenLDAP's ``rootpw``/``bindpw``,
mosquitto's ``remote_password``, bitcoind's ``rpcpassword=``, ``SMTP_PASS=``, a pgbouncer
userlist line, a password file's ``user:password`` line, in the seven covered languages. A
value that ends in symbols ("Qiao_Mu@2023!!") is still the value. Benign: the directive named
without a value, a placeholder, a path, a hashed value's format asked about.

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

# (text, the value)
DIRECTIVES = [
    ("redis.conf 里 requirepass Qiao_Mu@2023!! 这样写对吗 连不上", "Qiao_Mu@2023!!"),
    ("my redis.conf has requirepass Tr0ub4dor&3!! and it still says NOAUTH", "Tr0ub4dor&3!!"),
    ("en redis.conf puse requirepass Lima#2024!? y no conecta", "Lima#2024!?"),
    ("in der redis.conf steht requirepass Haus_Maus77!! – falsch?", "Haus_Maus77!!"),
    ("dans redis.conf j'ai mis requirepass Chat_Noir@99!! mais ça bloque", "Chat_Noir@99!!"),
    ("no redis.conf coloquei requirepass Sol_Mar#12** e nada", "Sol_Mar#12**"),
    ("redis.conf に requirepass Sakura_88!! と書いたけど繋がらない", "Sakura_88!!"),
    ("replica config: masterauth Qx_7781!! is that right?", "Qx_7781!!"),
    ("keepalived.conf: auth_type PASS, auth_pass k33pAl1v3 — why no failover?", "k33pAl1v3"),
    ("keepalived 的 auth_pass Vrrp2024 要和另一台一样吗", "Vrrp2024"),
    ("slapd.conf has rootpw Ldap_Admin_9 in plain text, bad idea?", "Ldap_Admin_9"),
    ("nslcd.conf: bindpw Bind3r!Pw and binddn cn=reader", "Bind3r!Pw"),
    ("mosquitto bridge: remote_username hub, remote_password Mqtt_Br1dge!", "Mqtt_Br1dge!"),
    ("bitcoin.conf: rpcuser=alice rpcpassword=Sat0shi_Rpc!! does it need quotes?", "Sat0shi_Rpc!!"),
    ("mein .env: SMTP_USER=me@example.org SMTP_PASS=Mail_Pass_42!", "Mail_Pass_42!"),
    ("en el .env tengo SMTP_PASSWORD=Correo2024!! y falla el envío", "Correo2024!!"),
    ('pgbouncer userlist.txt: "app" "Pgb_S3cret!!" no conecta', "Pgb_S3cret!!"),
    ('pgbouncer 的 userlist.txt 写的 "admin" "Adm1n_Pg!"，连接失败', "Adm1n_Pg!"),
    ('le fichier userlist.txt de pgbouncer : "web" "W3b_Pass!"', "W3b_Pass!"),
    ("my mosquitto passwd line before hashing was sensor1:S3ns0r_Pw!", "S3ns0r_Pw!"),
    ("asterisk sip.conf: secret=Sip_Ph0ne!! for extension 201", "Sip_Ph0ne!!"),
    ("hostapd: wpa_passphrase=Casa_Wifi_2024!! ist zu lang?", "Casa_Wifi_2024!!"),
    ("o requirepass do redis é Redis_Br@sil!! e o app não conecta", "Redis_Br@sil!!"),
    ("redis の masterauth は Rep1ica_Pw!! にしてる", "Rep1ica_Pw!!"),
    ("freeradius clients.conf: secret = Rad1us_Shared!!", "Rad1us_Shared!!"),
    ("我的 redis requirepass 是 Zhang_San_1990!! 对吗", "Zhang_San_1990!!"),
    ("keepalived: auth_pass Kp_2024!! en los dos nodos", "Kp_2024!!"),
    ("vsftpd? no, proftpd: PASS Ftp_User_77!! in the script", "Ftp_User_77!!"),
    ("redis-cli -a Cli_Pass!! ping gives NOAUTH", "Cli_Pass!!"),
    ("dans docker-compose : REDIS_PASSWORD=Doc_Kr!!", "Doc_Kr!!"),
]

BENIGN = [
    "what does requirepass do in redis.conf?",
    "requirepass is commented out in my redis.conf, is that bad?",
    "redis.conf 里 requirepass 要不要打开",
    "requirepass <your-password> is what the docs show",
    "set requirepass foobared like the example file?",
    "keepalived: auth_type PASS needs auth_pass too, right?",
    "rootpw can be a {SSHA} hash instead of plain text",
    "mosquitto password_file /etc/mosquitto/passwd",
    "pgbouncer auth_file = /etc/pgbouncer/userlist.txt",
    "SMTP_PASS is read from the environment, not the file",
    "in .env set SMTP_PASS=changeme and replace it later",
    "rpcpassword is deprecated, use rpcauth instead",
    "bindpw se puede leer de un fichier con bindpw_file",
    "der masterauth-Wert muss gleich dem requirepass sein",
    "le paramètre requirepass n'est pas chiffré",
    "a diretiva requirepass fica no redis.conf",
    "redis の requirepass はどこに書けばいい？",
    "requirepass ${REDIS_PASSWORD} in the template",
]


@pytest.mark.parametrize(("text", "value"), DIRECTIVES)
def test_directive_value_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text, classify(text))


@pytest.mark.parametrize("text", BENIGN)
def test_directive_without_a_value_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
