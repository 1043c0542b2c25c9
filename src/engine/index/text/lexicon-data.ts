/**
 * The bundled word-relatedness resource of the `local` embedder, written from general knowledge of
 * how business and data words relate: synonyms, a thing and its kinds, an attribute and the
 * adjectives that ask about it ("oldest" asks about age, "expensive" about price). It is generic on
 * purpose; it is not fitted to any dataset's questions. Words are stemmed when loaded.
 *
 * ABBREVIATIONS: what short forms in identifiers stand for (`qty` -> quantity).
 * RELATED_GROUPS: one group per line; every word of a line is related to every other.
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  acct: 'account',
  addr: 'address',
  amt: 'amount',
  avg: 'average',
  bal: 'balance',
  bday: 'birthday',
  cat: 'category',
  cnt: 'count',
  co: 'company',
  corp: 'corporation',
  ctry: 'country',
  cty: 'city',
  cust: 'customer',
  dept: 'department',
  desc: 'description',
  descr: 'description',
  dest: 'destination',
  dob: 'birth',
  dt: 'date',
  emp: 'employee',
  empl: 'employee',
  fname: 'first',
  lname: 'last',
  fk: 'key',
  pk: 'key',
  id: 'id',
  ident: 'identifier',
  img: 'image',
  info: 'information',
  inv: 'invoice',
  loc: 'location',
  max: 'maximum',
  min: 'minimum',
  mgr: 'manager',
  mfr: 'manufacturer',
  mpg: 'mileage',
  msg: 'message',
  nbr: 'number',
  no: 'number',
  num: 'number',
  nr: 'number',
  org: 'organization',
  pct: 'percent',
  ph: 'phone',
  pos: 'position',
  prod: 'product',
  pwd: 'password',
  qty: 'quantity',
  ref: 'reference',
  rev: 'revenue',
  sal: 'salary',
  src: 'source',
  stat: 'statistic',
  std: 'student',
  stu: 'student',
  tel: 'telephone',
  temp: 'temperature',
  tmp: 'temporary',
  ts: 'timestamp',
  txn: 'transaction',
  usr: 'user',
  val: 'value',
  vol: 'volume',
  wt: 'weight',
  yr: 'year',
  yrs: 'year',
  hp: 'horsepower',
  accel: 'acceleration',
  cyl: 'cylinder',
  disp: 'displacement',
  hr: 'hour',
  hrs: 'hour',
  mins: 'minute',
  sec: 'second',
  secs: 'second',
  mon: 'month',
  wk: 'week',
  qtr: 'quarter',
  fy: 'fiscal',
  pop: 'population',
  lang: 'language',
  nat: 'nationality',
  natl: 'national',
  intl: 'international',
  univ: 'university',
  dir: 'director',
  pres: 'president',
  gov: 'government',
  govt: 'government',
  ins: 'insurance',
  doc: 'document',
  docs: 'document',
  pic: 'picture',
  ppl: 'people',
  grp: 'group',
  abbr: 'abbreviation',
  abbrev: 'abbreviation',
  approx: 'approximate',
  lat: 'latitude',
  lng: 'longitude',
  lon: 'longitude',
  long: 'longitude',
  alt: 'altitude',
  elev: 'elevation',
  ht: 'height',
  len: 'length',
  dist: 'distance',
  cap: 'capacity',
  reg: 'registration',
  ctr: 'center',
  cntr: 'center',
  st: 'street',
  ave: 'avenue',
  rd: 'road',
  apt: 'apartment',
  bldg: 'building',
  sq: 'square',
  ft: 'feet',
  km: 'kilometer',
  mi: 'mile',
  kg: 'kilogram',
  lb: 'pound',
  lbs: 'pound',
  gdp: 'economy',
  ceo: 'chief',
  vp: 'president',
  gpa: 'grade',
  dob_: 'birth',
  eff: 'effective',
  attr: 'attribute',
  char: 'characteristic',
  chars: 'characteristic',
  spec: 'specification',
  ver: 'version',
  seq: 'sequence',
  idx: 'index',
  ord: 'order',
  dlvr: 'delivery',
  shp: 'shipment',
  pymt: 'payment',
  pmt: 'payment',
};

export const RELATED_GROUPS = `
age old older oldest young younger youngest elderly born birth birthday year aged senior junior
price cost costly expensive cheap cheaper cheapest pricing fee charge fare rate paid pay afford
salary wage wages pay paid earn earning earnings income compensation
revenue sales income turnover earnings proceeds
profit margin gain earnings
amount total sum quantity value
count number many total tally quantity
quantity amount volume units count
size big bigger biggest large larger largest small smaller smallest area capacity
height tall taller tallest short shorter shortest high
weight weigh weighing heavy heavier heaviest light lighter lightest mass
length long longer longest short shorter shortest distance
distance far farther farthest near nearest close closest length mileage kilometer mile
speed fast faster fastest slow slower slowest quick velocity acceleration
duration long time length period hours minutes
time date day when year month timestamp datetime period
date day when year month time calendar
year annual yearly when
month monthly
week weekly
start begin began beginning started opening open opened launch launched from
end ended finish finished close closed closing until
population people inhabitants residents populous
country nation nationality national state countries citizen citizenship
city town municipality urban village place
state province region territory county district area
region area zone territory district continent
continent region world
address street location place where city zip postcode postal
location place where site position located address venue
name named called title label
title name heading
description describe details detail text information about summary comment comments note notes
comment comments remark remarks note notes feedback review
review rating rated score stars opinion
rating rank ranking ranked score grade rated stars
rank ranking position place standing
score points grade mark result rating
grade score mark class level year
level grade tier rank degree class
type kind category class sort classification genre variety style
category type kind class group genre segment
genre style category type
status state condition stage phase
code identifier id number abbreviation symbol
id identifier key code number
phone telephone mobile cell contact
email mail contact
contact phone email address
customer client buyer purchaser consumer shopper patron account
client customer
supplier vendor provider seller manufacturer maker distributor
vendor supplier seller
manufacturer maker producer brand company builder make
maker manufacturer make brand
brand make maker manufacturer label
company firm business corporation enterprise organization employer
organization organisation company institution agency association body
employee staff worker personnel member employ employed hire hired job
staff employee worker personnel crew
manager boss supervisor head director lead
director head manager chief leader
head leader chief director manager
owner owns owned possess belong belongs proprietor holder
member membership participant belong belongs join joined
person people individual human someone somebody who
people person persons individuals
student pupil learner enrolled enroll enrollment
teacher instructor professor lecturer faculty tutor teach teaches taught
course class subject lesson module program
class course section
school college university academy institute campus
department dept division unit section office
order orders purchase buy bought purchased booking
purchase buy bought order acquisition
sale sell sold selling sales
product item goods merchandise article
item product thing article entry
invoice bill billing receipt
payment pay paid paying transaction
transaction payment transfer exchange deal
account acct
balance amount remaining
budget allocation funding fund
loan credit debt borrow borrowed
bank financial institution
tax taxes
discount reduction promotion sale
shipment shipping delivery delivered ship shipped dispatch
delivery delivered deliver shipment
warehouse storage store depot
store shop outlet retail branch
branch office location site
inventory stock supply
stock inventory share
supply supplies provision
event occasion happening meeting
meeting event appointment session
appointment booking reservation visit scheduled
reservation booking booked reserve
visit visited visitor visitors trip
visitor guest visitors tourist attendee
guest visitor
ticket tickets pass admission
attendance attend attended attendee audience spectator
audience spectator viewer viewers fans
performance perform performed show concert play
concert show performance gig festival
song track music tune single
music song musical
album record release
artist musician singer performer band
singer vocalist artist
band group
movie film picture
film movie
actor actress performer cast
episode show series
series show program
book novel publication title
author writer wrote written
publisher publishing published
library libraries
museum gallery exhibition exhibit
exhibition exhibit show display
game match play played contest
match game
player athlete sportsman competitor
team club squad side
club team
coach trainer manager
tournament competition championship league cup contest
competition contest tournament race
league division conference
season year
win wins won winner winning victory champion
lose loss lost loser losing defeat
winner champion victor
goal goals score scored
stadium arena venue ground field
venue location place stadium
hotel lodging accommodation inn
room rooms bedroom chamber
house home property residence dwelling building
property real estate building land
building structure facility
apartment flat unit
rent rental lease leased rented
price asking
flight flights fly flew flying air trip
airline carrier airway
airport airfield
aircraft airplane plane jet
plane aircraft airplane
pilot aviator
passenger traveler rider
destination arrival arrive arriving to
source origin departure depart departing leave leaving from
arrival arrive arrived
departure depart departed
route path way trip journey
train rail railway station
station stop terminal
vehicle car automobile truck motor
car automobile vehicle auto
truck lorry vehicle
engine motor horsepower cylinder
fuel gas petrol gasoline mileage mpg efficiency
horsepower power hp engine
road street highway
ship boat vessel
doctor physician medic
patient patients sick
hospital clinic
nurse nurses
treatment therapy procedure
disease illness condition sickness
medicine drug medication prescription
pet animal dog cat
animal pet creature
dog puppy
cat kitten
food meal dish cuisine
restaurant diner eatery cafe
dish meal food
drink beverage
weather climate temperature
temperature heat degree celsius fahrenheit
election vote voting votes poll candidate
vote votes voted voting ballot
candidate nominee
party political
government state official
representative delegate senator congressman
police officer
crime offense
court judge trial
law legal
war battle conflict
battle war fight
ship ships vessel
language languages speak spoken tongue
official formal
religion faith
website site web page url link
user users account member
password credential
message messages text
document documents file paper record
file document
record entry row
template form format pattern
version revision release
image picture photo photograph
photo photograph picture image
video clip
network friend friends friendship connected connection
friend friends buddy
like likes liked
follow follows follower followers
high highest higher top best greatest maximum max most
low lowest lower bottom worst least minimum min
maximum max highest most largest top
minimum min lowest least smallest bottom
average mean avg typical
total sum overall combined
percent percentage ratio share proportion rate
rate ratio percentage
number count
first earliest initial
last latest final recent most
recent latest newest new
new newest recent
old oldest ancient
early earliest before
late latest after
gender sex male female man woman men women boy girl
male man men boy
female woman women girl
married marriage spouse wife husband
child children kid kids son daughter
parent parents father mother
family relative
birth born birthplace
death died dead
hometown birthplace origin home
nationality citizenship country
job occupation profession work role position title career
role position job
work works worked working job
project projects task
task job assignment
skill skills ability
degree diploma qualification
exam test examination
result results outcome
research study
study studies
paper article publication
journal magazine periodical
conference meeting
award prize honor medal
prize award
medal award
height tall
weight heavy
color colour
shape form
model version type
feature characteristic attribute property
attribute property characteristic feature
`;
