import sqlite3 from 'sqlite3';
import fs from 'fs';
const f='/tmp/sqb/t.db'; for (const x of [f,f+'-wal',f+'-shm']) try{fs.unlinkSync(x)}catch{}
const db=new sqlite3.Database(f);
const run=(sql,p=[])=>new Promise((res,rej)=>db.run(sql,p,e=>e?rej(e):res()));
await run('PRAGMA journal_mode=WAL'); await run('PRAGMA synchronous=NORMAL');
await run(`CREATE TABLE r(dev TEXT, ts INTEGER, gw TEXT, rssi INTEGER, bat INTEGER, temp REAL, hum REAL, uuid TEXT, major INTEGER, minor INTEGER, tx INTEGER)`);
await run('CREATE INDEX r_dev_ts ON r(dev, ts)');
const ROWS=Number(process.argv[2]||200), COLS=11;
const ph='('+Array(COLS).fill('?').join(',')+')'; const sql='INSERT INTO r VALUES '+Array(ROWS).fill(ph).join(',');
const stmt=db.prepare(sql);
const N=300000, t0=performance.now(); let ts=Date.now();
const c0=process.cpuUsage();
for (let b=0;b<N;b+=5000){
  await run('BEGIN');
  const ps=[];
  for (let k=0;k<5000;k+=ROWS){ const p=[]; for(let i=0;i<ROWS;i++){const d=(b+k+i)%20000; p.push('AABBCC'+d.toString(16).padStart(6,'0'), ts++, 'GW01',-60,80,21.5,40.2,'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',1,d,-59)} ps.push(new Promise((res,rej)=>stmt.run(p,e=>e?rej(e):res())))}
  await Promise.all(ps);
  await run('COMMIT');
}
const ms=performance.now()-t0; const cu=process.cpuUsage(c0);
console.log(ROWS,'rows/stmt', Math.round(N/ms*1000),'rows/s', 'cpu user+sys ms',Math.round((cu.user+cu.system)/1000),'wall',Math.round(ms));
